"""Stale translations: each translated text remembers which default-language text it was written
from (the first of project.yaml's `languages`; "English" below, as in this repository).

The YAML files stay plain texts. Beside them, `translations.lock` (JSON, keys sorted, written
only by `releasekb translations --reviewed`) records for every translated text a short hash of
the English text it was last reviewed against, keyed by where the text lives:
`{"zh": {"1.7:summary": "…", "1.7:torch-fft.summary": "…"}}`. Keys name entries by id, not
by position, so reordering a file changes nothing. When an English text no longer matches
its recorded hash, its translation may be out of date: `validate` warns at the English text
and the translated page shows a note on that entry, until a curator marks it reviewed.

A text without a record (a new entry, a new release) is not stale: it starts reviewed, and
gets its record the next time a curator marks its release (or everything) reviewed.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from releasekb.common import atomic
from releasekb.common.problems import Problem
from releasekb.kb.dataset import LoadedRelease, TranslationRecords, ValidatedData, entries, texts
from releasekb.kb.kept import kept
from releasekb.kb.loader import Location, format_location

LOCK_FILE = "translations.lock"


def source_language(data: ValidatedData) -> str:
    """The language every translation is made from: the knowledge base's first."""
    return data.project.languages[0]


def translated_languages(languages) -> tuple[str, ...]:
    """The knowledge base's languages other than the first: those a lock file has a table for."""
    return tuple(languages[1:])


_ABOUT = (
    "Written by `releasekb translations --reviewed`; do not edit by hand. For each translated text: "
    "a hash of the English text it was last reviewed against (see README, Adding a release)."
)

Records = TranslationRecords


def source_hash(text: str) -> str:
    """A short hash of an English text; reflowing whitespace in the YAML does not change it."""
    return hashlib.sha256(" ".join(text.split()).encode("utf-8")).hexdigest()[:12]


@dataclass(frozen=True)
class TranslatedText:
    """One bilingual text of a release file."""

    key: str  # "1.7:summary", "1.7:torch-fft.summary"
    entry_key: str  # "1.7" for the release's own texts, "1.7:torch-fft" for an entry's
    release: LoadedRelease
    location: Location  # in the document, e.g. ("features", 3, "summary")
    texts: dict[str, str]  # language -> text

    def problem_at(self, lang: str, message: str, severity: str = "warning") -> Problem:
        position = self.release.document.position((*self.location, lang))
        return Problem(
            self.release.document.display_path,
            position.line,
            position.column,
            format_location((*self.location, lang)),
            message,
            severity,
        )


def translated_texts(data: ValidatedData) -> list[TranslatedText]:
    """Every bilingual text of every release, in file order."""
    return [text for release in data.releases for text, _ in _hashed_texts(release, source_language(data))]


def _hashed_texts(release: LoadedRelease, source: str) -> tuple[tuple[TranslatedText, str | None], ...]:
    """(text, hash of its `source`-language text, None where it has none) for one release file."""
    return kept("hashed texts", release, source, lambda: tuple(_hashed(_texts_of(release), source)))


def _hashed(found: Iterable[TranslatedText], source: str) -> Iterable[tuple[TranslatedText, str | None]]:
    for text in found:
        yield text, source_hash(text.texts[source]) if source in text.texts else None


def _texts_of(release: LoadedRelease) -> list[TranslatedText]:
    """Every bilingual text of one release file, in file order."""
    result = []
    version = release.record.version
    for location, text in texts(release.record):
        if location[0] not in ("features", "changes"):  # entries come next, keyed by id
            key = f"{version}:{_dotted(location)}"
            result.append(TranslatedText(key, version, release, location, _by_language(text)))
    for location, entry in entries(release):
        entry_key = f"{version}:{entry.id}"
        for inner, text in texts(entry):
            key = f"{entry_key}.{_dotted(inner)}"
            result.append(TranslatedText(key, entry_key, release, (*location, *inner), _by_language(text)))
    return result


def _dotted(location: Location) -> str:
    return ".".join(str(part) for part in location)


def _by_language(text) -> dict[str, str]:
    return dict(text.model_extra or {})


@dataclass(frozen=True)
class StaleText:
    text: TranslatedText
    lang: str  # the translation that may be out of date


def stale_texts(data: ValidatedData) -> list[StaleText]:
    """Translations whose English text changed since they were last reviewed."""
    result = []
    source = source_language(data)
    for text, current in (pair for release in data.releases for pair in _hashed_texts(release, source)):
        for lang in translated_languages(data.project.languages):
            if lang not in text.texts:  # not yet translated (untranslated: fallback)
                continue
            recorded = data.translation_records.get(lang, {}).get(text.key)
            if recorded is not None and recorded != current:
                result.append(StaleText(text, lang))
    return result


def stale_warnings(data: ValidatedData) -> list[Problem]:
    """One warning per stale translation, at the English text, naming the translation to review."""
    warnings = []
    for stale in stale_texts(data):
        text = stale.text
        translated = text.release.document.position((*text.location, stale.lang))
        warnings.append(
            text.problem_at(
                source_language(data),
                f"the English text changed after its translation was last reviewed: review "
                f"{format_location((*text.location, stale.lang))} (line {translated.line}), then run "
                f"`releasekb translations --reviewed {text.key}`",
            )
        )
    return warnings


def unrecorded_count(data: ValidatedData) -> int:
    """Texts that have no record yet (new texts): not stale, recorded when next marked reviewed."""
    return sum(
        1
        for text in translated_texts(data)
        for lang in translated_languages(data.project.languages)
        if lang in text.texts and text.key not in data.translation_records.get(lang, {})
    )


@dataclass(frozen=True)
class MissingText:
    text: TranslatedText
    lang: str  # the language it has no text in yet


def missing_texts(data: ValidatedData) -> list[MissingText]:
    """The texts not yet translated into a language (possible with `untranslated: fallback`)."""
    return [
        MissingText(text, lang)
        for text in translated_texts(data)
        for lang in translated_languages(data.project.languages)
        if lang not in text.texts
    ]


def read_records(content: bytes | None, display_path: str, languages) -> tuple[Records, list[Problem]]:
    """The records of the lock file's bytes ({} when there is none yet: content is None) and any
    problem reading them; languages: the knowledge base's."""
    translated = translated_languages(languages)
    if content is None:
        return {}, []
    try:
        raw = json.loads(content.decode("utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        line, column = (error.lineno, error.colno) if isinstance(error, json.JSONDecodeError) else (1, 1)
        message = f"not valid JSON ({error.msg if isinstance(error, json.JSONDecodeError) else error.reason}); "
        return {}, [Problem(display_path, line, column, "(document)", message + _REWRITE_HINT)]
    records = {lang: raw.get(lang) for lang in translated} if isinstance(raw, dict) else None
    if records is None or not all(
        isinstance(table, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in table.items())
        for table in records.values()
        if table is not None
    ):
        shape = f"expected an object with one table per translated language ({', '.join(translated)})"
        return {}, [Problem(display_path, 1, 1, "(document)", f"{shape}; {_REWRITE_HINT}")]
    return {lang: table or {} for lang, table in records.items()}, []


_REWRITE_HINT = (
    "restore it from version control, or delete it and run `releasekb translations --reviewed --all` "
    "to record the current texts as reviewed"
)


def write_records(data_dir: Path, records: Records, languages) -> Path:
    path = Path(data_dir) / LOCK_FILE
    atomic.write_text(path, lock_text(records, languages))
    return path


def lock_text(records: Records, languages) -> str:
    """translations.lock's content for `records` (JSON, keys sorted)."""
    translated = translated_languages(languages)
    content = {"about": _ABOUT, **{lang: dict(sorted(records.get(lang, {}).items())) for lang in translated}}
    return json.dumps(content, indent=1, ensure_ascii=False) + "\n"


class UnknownTarget(ValueError):
    pass


def matches(text: TranslatedText, target: str, data_dir: Path) -> bool:
    """Does `target` name this text? A release file, a version, an entry id (in every release),
    `<version>:<id>`, or one text's key."""
    target_path = Path(target)
    if target_path.suffix == ".yaml" and target_path.exists():
        return target_path.resolve() == text.release.document.path.resolve()
    version, _, entry_id = text.entry_key.partition(":")
    return target in (version, text.entry_key, text.key) or (entry_id != "" and target == entry_id)


def mark_reviewed(data: ValidatedData, data_dir: Path, targets: Iterable[str] | None) -> tuple[Path, int]:
    """Record the current English text of every text the targets name (all texts when targets
    is None) as reviewed; records of texts that no longer exist are dropped. Returns the lock
    file and how many texts were marked. Raises UnknownTarget naming a target that matched nothing."""
    records, count = reviewed_records(data, data_dir, targets)
    return write_records(data_dir, records, data.project.languages), count


def reviewed_records(data: ValidatedData, data_dir: Path, targets: Iterable[str] | None) -> tuple[Records, int]:
    """The records mark_reviewed writes, and how many texts they mark."""
    texts = translated_texts(data)
    if targets is None:
        chosen = texts
    else:
        targets = list(targets)
        chosen = []
        for target in targets:
            found = [text for text in texts if matches(text, target, data_dir)]
            if not found:
                raise UnknownTarget(target)
            chosen += found
    existing = {text.key for text in texts}
    translated = translated_languages(data.project.languages)
    records = {
        lang: {key: value for key, value in data.translation_records.get(lang, {}).items() if key in existing}
        for lang in translated
    }
    for text in chosen:
        for lang in translated:
            if lang in text.texts:  # a text not yet translated has nothing to review
                records[lang][text.key] = source_hash(text.texts[source_language(data)])
    return records, len({text.key for text in chosen})


def stale_entry_keys(data: ValidatedData) -> dict[str, set[str]]:
    """{"1.7:torch-fft" or "1.7": languages whose translation of it may be out of date}."""
    result: dict[str, set[str]] = {}
    for stale in stale_texts(data):
        result.setdefault(stale.text.entry_key, set()).add(stale.lang)
    return result
