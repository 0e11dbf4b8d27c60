"""The API index as `check` reads it: typed, frozen records parsed once from the document.

The document (kb/api_index.py builds it, index_source.py checks a published one against
api_schema.json and its references first) is JSON; these types hold what the findings need of it,
so that a field name is spelled once, here. Fields the findings do not read (a record's language,
its deprecated_in, breaking_in and removed_in, a release's date) are left out: the entries say
the same per release.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Level:
    """A stability level: `rank` None for a level that says nothing (unlabeled)."""

    key: str
    rank: int | None
    name: dict[str, str]  # in every language of the site

    @classmethod
    def parse(cls, level: dict) -> Level:
        return cls(key=level["key"], rank=level["rank"], name=level["name"])


@dataclass(frozen=True)
class CallCondition:
    """An entry's `when`: the calls of the API it concerns, those that pass every parameter of
    `passed` and none of `not_passed`; `params` in the signature's order, those after `*` given
    by name only."""

    params: tuple[str, ...]
    passed: tuple[str, ...]
    not_passed: tuple[str, ...]

    @classmethod
    def parse(cls, when: dict) -> CallCondition:
        return cls(params=tuple(when["params"]), passed=tuple(when["passed"]), not_passed=tuple(when["not_passed"]))


@dataclass(frozen=True)
class IndexEntry:
    """An entry as the record of one of the APIs it lists gives it."""

    id: str
    release: str
    kind: str
    is_change: bool
    level: str | None  # the level key of a feature entry; None for a change
    title: dict[str, str]
    migration: dict[str, str] | None
    urls: dict[str, str]  # the entry's permanent address in every language
    feature_urls: dict[str, str]
    when: CallCondition | None  # None: the entry concerns every use of the API
    # a change announced for a later release: the release it takes effect in (absent from
    # indexes published before it existed: in its own release)
    takes_effect: str | None = None

    @classmethod
    def parse(cls, entry: dict) -> IndexEntry:
        when = entry.get("when")  # absent from indexes published before it existed
        return cls(
            id=entry["id"],
            release=entry["release"],
            kind=entry["kind"],
            is_change=entry["is_change"],
            level=entry["level"],
            title=entry["title"],
            migration=entry["migration"],
            urls=entry["urls"],
            feature_urls=entry["feature_urls"],
            when=CallCondition.parse(when) if when is not None else None,
            takes_effect=entry.get("takes_effect"),
        )


@dataclass(frozen=True)
class ApiRecord:
    """What the knowledge base says about one API name used one way (`torch.fft` as a module)."""

    name: str
    use: str
    introduced_in: str | None
    feature: str | None  # the feature that introduced it
    levels: dict[str, str]  # {release: level key} of the introducing feature's entries
    replacement: str | None
    # whether the replacement takes the same arguments and gives the same results; None without one
    replacement_drop_in: bool | None
    entries: tuple[IndexEntry, ...]

    @classmethod
    def parse(cls, record: dict) -> ApiRecord:
        replacement = record["replacement"]
        return cls(
            name=record["name"],
            use=record["use"],
            introduced_in=record["introduced_in"],
            feature=record["feature"],
            levels=record["levels"],
            replacement=replacement,
            # an index published before `replacement_drop_in` existed: every replacement was a drop-in
            replacement_drop_in=record.get("replacement_drop_in") is not False if replacement else None,
            entries=tuple(IndexEntry.parse(entry) for entry in record["entries"]),
        )

    @property
    def key(self) -> tuple[str, str]:
        return (self.name, self.use)

    def introducing_entry(self) -> IndexEntry:
        """The entry of the introducing feature in the release that introduced the API."""
        return next(e for e in self.entries if e.release == self.introduced_in and e.id == self.feature)


def specific_first(records: list[ApiRecord]) -> list[ApiRecord]:
    """The matched records, the most specific name first (torch.fft.fft before torch.fft)."""
    return sorted(records, key=lambda record: (-len(record.name), record.use))
