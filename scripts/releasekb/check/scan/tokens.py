"""Files that are not Python (C++ sources named by `include`): whole tokens such as `torch::class_`."""

from __future__ import annotations

from releasekb.check.messages import message
from releasekb.check.scan.decoding import decode_utf8
from releasekb.check.scan.jobs import SKIPPED, Job, Outcome, failed
from releasekb.check.scan.model import RANK, Target, Use
from releasekb.check.scan.suppressions import NO_SUPPRESSION, token_suppressions
from releasekb.check.scan.targets import (
    Config,
)

_TOKEN_HOW = (message("token"),)


def _token_targets(config: Config, token: str) -> list[Target]:
    """Targets a token names: itself, or a name it continues with `::` (`torch::class_::def`)."""
    found = list(config.tokens.get(token, ()))
    position = token.find("::")
    while position > 0:
        found.extend(config.tokens.get(token[:position], ()))
        position = token.find("::", position + 2)
    return found


def scan_tokens(job: Job, data: bytes, config: Config) -> Outcome:
    if config.token_pattern is None or not any(root in data for root in config.token_roots):
        return SKIPPED
    text, failure = decode_utf8(data)
    if text is None:
        return failed(job.rel, *failure)
    lines = text.split("\n")
    suppressions = token_suppressions(lines)
    uses = []
    if RANK["medium"] < config.min_rank:
        return ("scanned", uses, [])
    for number, line in enumerate(lines, start=1):
        for match in config.token_pattern.finditer(line):
            for target in _token_targets(config, match.group()):
                uses.append(
                    Use(
                        path=job.rel,
                        line=number,
                        column=match.start() + 1,
                        cell=None,
                        target=target,
                        written=target.name,
                        resolved=target.name,
                        resolution=_TOKEN_HOW,
                        confidence="medium",
                        guarded=False,
                        suppressed=suppressions.get(number, NO_SUPPRESSION),
                    )
                )
    return ("scanned", uses, [])
