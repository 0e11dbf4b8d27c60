"""The scanner of `releasekb check` (see analyzer.py); the next commit splits it by job."""

from releasekb.check.scan.analyzer import (
    COMMON_METHOD_NAMES,
    CONFIDENCE_LEVELS,
    DEFAULT_MAX_FILE_SIZE,
    DEFAULT_SKIPPED_DIRS,
    PARALLEL_THRESHOLD,
    CallArguments,
    FileError,
    Message,
    Roots,
    ScanResult,
    Target,
    Use,
    scan,
)

__all__ = [
    "CONFIDENCE_LEVELS",
    "COMMON_METHOD_NAMES",
    "DEFAULT_MAX_FILE_SIZE",
    "DEFAULT_SKIPPED_DIRS",
    "PARALLEL_THRESHOLD",
    "CallArguments",
    "FileError",
    "Message",
    "Roots",
    "ScanResult",
    "Target",
    "Use",
    "scan",
]
