"""Wire schemas of time at the table, the same for every game: the ``clock`` a create asks for
(``service.clocks`` keeps and runs it; a seat's clock in a view is ``schemas.common.SeatClock``).

A clock is ``{"kind": "fischer", "initial_seconds", "increment_seconds"}`` (a bank per person that
runs while the seat is to move and gains the increment when its turn ends) or ``{"kind": "per_move",
"seconds"}`` (the same time for every turn: correspondence), with ``on_timeout`` (``bot`` or
``forfeit``) and ``max_timeouts``. Every number is bounded: a clock outside the bounds is refused
with 422 ``validation_error`` naming the field.
"""

from __future__ import annotations

from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, validate, validates_schema

from schemas.common import _described

#: Bounds, in seconds (and timeouts in a row).
INITIAL_SECONDS = (1, 24 * 3600)
INCREMENT_SECONDS = (0, 3600)
PER_MOVE_SECONDS = (1, 3 * 24 * 3600)
MAX_TIMEOUTS = (1, 100)
DEFAULT_POLICY = "bot"
DEFAULT_MAX_TIMEOUTS = 3


def _seconds(bounds: tuple[int, int], doc: str) -> fields.Integer:
    return fields.Integer(strict=True, validate=validate.Range(*bounds), **_described(
        f"{doc}, {bounds[0]} to {bounds[1]} seconds."))


class ClockRequest(Schema):
    """The game's clock: a bank per person with an increment (``fischer``) or a time per turn
    (``per_move``), and what happens when it runs out."""

    class Meta:
        unknown = RAISE

    kind = fields.String(required=True, validate=validate.OneOf(["fischer", "per_move"]), **_described(
        "`fischer`: each person has a bank of time that runs while the seat is to move and gains "
        "`increment_seconds` at the end of each of its turns; `per_move`: each turn has `seconds`, whatever "
        "was left of the last (correspondence). A turn is the seat's moves while it stays to move."))
    initial_seconds = _seconds(INITIAL_SECONDS, "`fischer`: each person's bank at the start")
    increment_seconds = _seconds(INCREMENT_SECONDS, "`fischer`: what each turn adds to the bank when it ends "
                                                    "(default 0)")
    seconds = _seconds(PER_MOVE_SECONDS, "`per_move`: the time for each turn")
    on_timeout = fields.String(validate=validate.OneOf(["bot", "forfeit"]), **_described(
        "What happens when a person's time runs out. `bot` (the default): a bot of the default level plays "
        "the turn, and after `max_timeouts` turns in a row a bot takes the seat over for the rest of the "
        "game (`replaced`). `forfeit`: a two-player game is lost (termination `timeout`); in a larger game a "
        "bot takes the seat over and the seat is ranked last (`forfeited`)."))
    max_timeouts = fields.Integer(strict=True, validate=validate.Range(*MAX_TIMEOUTS), **_described(
        f"`on_timeout` `bot`: timeouts on a seat's turns in a row before a bot takes it over, "
        f"{MAX_TIMEOUTS[0]} to {MAX_TIMEOUTS[1]} (default {DEFAULT_MAX_TIMEOUTS})."))

    @validates_schema
    def _kind_fields(self, data: dict[str, Any], **_: Any) -> None:
        """Each kind takes its own times: ``fischer`` needs ``initial_seconds`` and refuses ``seconds``,
        ``per_move`` the other way round."""
        errors: dict[str, list[str]] = {}
        if data.get("kind") == "fischer":
            if "initial_seconds" not in data:
                errors["initial_seconds"] = ["Missing data for required field."]
            if "seconds" in data:
                errors["seconds"] = ["Only for a `per_move` clock."]
        elif data.get("kind") == "per_move":
            if "seconds" not in data:
                errors["seconds"] = ["Missing data for required field."]
            for name in ("initial_seconds", "increment_seconds"):
                if name in data:
                    errors[name] = ["Only for a `fischer` clock."]
        if errors:
            raise ValidationError(errors)


def clock_field() -> fields.Nested:
    return fields.Nested(ClockRequest, **_described(
        "Play on time: each person's seat has a clock that runs while it is to move (bots have none, and a "
        "waiting game's clocks wait too). Views show each seat's `clock` and the running `deadline`. Without "
        "it the game has no clock."))
