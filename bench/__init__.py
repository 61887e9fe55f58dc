"""Benchmarks that print figures (not tests): ``python -m bench.engines``, ``python -m bench.http``.

See bench/README.md for the method and the figures measured on the reference machine.
"""
