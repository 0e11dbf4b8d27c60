"""CHECK.md's table of finding kinds: each kind of kinds.TABLE in its order, then an unreadable
file, with when it is reported (its `trigger`). `python -m releasekb.check.kinds_table` prints it."""

from __future__ import annotations

from releasekb.check.kinds import TABLE, UNREADABLE_ROW

KINDS_TABLE_MARKER = "<!-- finding kinds -->"  # CHECK.md holds kinds_table() under it


def kinds_table() -> str:
    """The Markdown table of CHECK.md: one row per kind, with when it is reported (a test keeps
    CHECK.md's copy equal to this)."""
    lines = ["| kind | when |", "| --- | --- |"]
    lines += [f"| `{kind.name}` | {kind.trigger} |" for kind in (*TABLE, UNREADABLE_ROW)]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(kinds_table(), end="")
