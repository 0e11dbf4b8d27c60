"""CHECK.md's table of levels and exit: for each finding and a few --fail-on values, the exit
status, the SARIF level and the `github` command, as kinds.outcome decides them.
`python -m releasekb.check.levels_table` prints it."""

from __future__ import annotations

from releasekb.check.formats.github import COMMANDS
from releasekb.check.kinds import DEFAULT_FAIL_ON, KINDS, UNREADABLE, outcome
from releasekb.check.options import parse_fail_on

LEVELS_TABLE_MARKER = "<!-- levels and exit -->"  # CHECK.md holds levels_table() under it
# The --fail-on values the table shows: the default, none, and two lists of one's own
_TABLE_FAIL_ON = (None, "none", "removed,breaking", "newer,unstable")


def levels_table() -> str:
    """The Markdown table of CHECK.md: for each finding and --fail-on value, the exit status it
    leads to and its level in SARIF and `github`, as outcome() decides them (a test keeps
    CHECK.md's copy equal to this)."""
    situations = [(f"`{kind}`", kind, True) for kind in KINDS]
    situations += [
        ("a change already in effect at `--from` (any kind, with `--show-in-effect`)", "breaking", False),
        ("a guarded use (any kind)", "removed", False),
        ("`unreadable`: a file that could not be checked", UNREADABLE, True),
    ]
    columns = [
        (f"default (`{','.join(DEFAULT_FAIL_ON)}`)" if v is None else f"`{v}`", parse_fail_on(v))
        for v in _TABLE_FAIL_ON
    ]
    lines = [
        "| finding | " + " | ".join(title for title, _ in columns) + " |",
        "| --- |" + " --- |" * len(columns),
    ]
    for title, kind, can_fail in situations:
        cells = []
        for _, fail_on in columns:
            fails, level_ = outcome(kind, fail_on, can_fail=can_fail)
            cells.append(f"exit {int(fails)}, `{level_}`, `::{COMMANDS[level_]}`")
        lines.append(f"| {title} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(levels_table(), end="")
