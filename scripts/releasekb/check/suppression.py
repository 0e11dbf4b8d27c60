"""Which findings a `# releasekb: ignore[ENTRY-ID]` comment accepts: the scanner reads the
comment into each use's `suppressed` ids; a bare `# releasekb: ignore` accepts every finding."""

from __future__ import annotations

BARE_IGNORE = "*"  # `# releasekb: ignore` without ids suppresses every finding on its line


def suppressed(use, entry_id: str) -> bool:
    """Whether the comment on the line of `use` (a scan.Use) accepts the findings of `entry_id`."""
    return BARE_IGNORE in use.suppressed or entry_id in use.suppressed
