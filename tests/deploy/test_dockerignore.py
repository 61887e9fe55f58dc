"""The ``.dockerignore`` matcher of tests/deploy/dockerignore.py gives the engine's answers on cases
whose answers the engine's own tests (moby's patternmatcher) fix, so the checks of the build context
in test_deploy_files.py can be trusted without a Docker engine."""

from __future__ import annotations

import pytest

from tests.deploy.dockerignore import DockerIgnore, go_clean, read_patterns


@pytest.mark.parametrize(("path", "clean"), [
    ("a//b/./c/..", "a/b"), ("/../x", "/x"), ("../../a", "../../a"), ("", "."), ("a/..", "."),
    ("seeds/", "seeds"), ("./seeds", "seeds"), ("//a", "/a"), ("a/b/../../..", ".."),
])
def test_patterns_are_cleaned_as_go_cleans_paths(path: str, clean: str) -> None:
    assert go_clean(path) == clean


def test_reading_drops_comments_and_blanks_cleans_and_unroots() -> None:
    text = "\ufeff# a comment\n\n  /seeds/  \n !  ./docs/../README.md\n*.egg-info\n  # indented: a pattern\n"
    assert read_patterns(text) == ["seeds", "!README.md", "*.egg-info", "# indented: a pattern"]


@pytest.mark.parametrize(("pattern", "path", "excluded"), [
    ("**", "file", True),
    ("dir/**", "dir/dir2/file", True),
    ("abc/**", "abc", False),  # the directory itself is not "abc/" + something
    ("**/dir", "dir", True),
    ("**/dir", "a/dir/file", True),  # a directory excluded excludes its contents
    ("**file", "dir/file", True),
    ("**/file*.txt", "dir/dir/file.txt", True),
    ("a**/*.txt", "a/dir/dir/file.txt", True),
    ("a/*.txt", "a/dir/file.txt", False),  # "*" stays within one element
    ("a*b", "a/b", False),
    ("abc?def", "abcZdef", True),
    ("abc?def", "abcdef", False),
    ("a[b-d]e", "ace", True),
    ("a[b-d]e", "aae", False),
    ("a[^b-d]e", "aze", True),
    (".*", ".foo", True),
    (".*", "foo", False),
    ("abc.def", "abcZdef", False),  # "." is a dot, not any character
    ("a(b)c/def", "a(b)c/def", True),
    ("a\\*b", "a*b", True),
    ("*.egg-info", "cardtable.egg-info/PKG-INFO", True),
    ("*.egg-info", "sub/cardtable.egg-info/PKG-INFO", False),  # patterns are anchored at the root
    ("seeds", "seeds/sten.md", True),
    ("seeds", "docs/seeds/x.md", False),
])
def test_one_pattern_matches_as_the_engine_does(pattern: str, path: str, excluded: bool) -> None:
    assert DockerIgnore([pattern]).excluded(path) is excluded


@pytest.mark.parametrize(("patterns", "path", "excluded"), [
    (["**", "!util/docker/web"], "util/docker/web/foo", False),
    (["**", "!util/docker/web", "util/docker/web/foo"], "util/docker/web/foo", True),
    (["docs", "!docs/README.md"], "docs/README.md", False),
    (["docs", "!docs/README.md"], "docs/other.md", True),
    (["docs/*", "!docs/README.md"], "docs/README.md", False),
    (["!fileutils.go", "*.go"], "fileutils.go", True),  # the last pattern that matches decides
    (["*.go", "!fileutils.go"], "fileutils.go", False),
])
def test_exceptions_bring_files_back_and_the_last_match_wins(patterns: list[str], path: str, excluded: bool) -> None:
    assert DockerIgnore(patterns).excluded(path) is excluded


@pytest.mark.parametrize("pattern", ["!", "[", "a["])
def test_a_bad_pattern_is_refused(pattern: str) -> None:
    with pytest.raises(ValueError):
        DockerIgnore([pattern])
