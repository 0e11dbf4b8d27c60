"""The shape of the data: typed records for project.yaml and releases/<version>.yaml.

These pydantic models are the single definition of the file formats: the validator
checks files against them and `schema.py` turns them into the JSON Schemas that
editors use. Vocabulary fields (areas, stability labels, schemes) are strings whose allowed values
come from project.yaml: the validator passes them in as validation context, and
`schema.py` writes them into the JSON Schema as enums.
"""

from __future__ import annotations

import re
from typing import Annotated, ClassVar, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationInfo,
    model_validator,
)
from pydantic_core import PydanticCustomError

from releasekb.common.cjk import has_han_or_kana, has_hangul
from releasekb.common.dates import parse_date
from releasekb.common.i18n import DEFAULT_LANGUAGES, has_interface_strings, known_languages
from releasekb.common.problems import not_one_of
from releasekb.kb.urls import MAX_NAME_LENGTH

SLUG_PATTERN = r"^[a-z0-9]+(-[a-z0-9]+)*$"
VERSION_PATTERN = r"^[0-9]+(\.[0-9]+)*([.-]?[a-z0-9]+)*$"
DATE_PATTERN = r"^[0-9]{4}-[0-9]{2}(-[0-9]{2})?$"
HEX_COLOUR_PATTERN = r"^#[0-9A-Fa-f]{6}$"
URL_PATTERN = r"^https?://[^\s/?#]+\.[^\s/?#]+(/[^\s]*)?$"

# The JSON Schema files written next to the data (by schema.py), and the first line that
# points editors at it.
RELEASE_SCHEMA = "release.schema.json"
PROJECT_SCHEMA = "project.schema.json"
SCHEMA_COMMENT = f"# yaml-language-server: $schema={RELEASE_SCHEMA}"

# What `releasekb new` writes where only the curator knows the value; the validator refuses
# every string that still starts with it.
PLACEHOLDER = "TODO"

# Anchors the release page uses for its own sections ("area-" prefixes the area groups):
# an entry id, which is also an anchor on that page, must not take one of them.
RESERVED_ANCHORS = ("highlights", "stability-summary", "features", "changes", "sources", "navigation")
RESERVED_ANCHOR_PREFIX = "area-"

# The key of the built-in level of features no release gave a level (the catalog's, beside the
# project's labels): a label of project.yaml cannot take it.
UNLABELED = "unlabeled"

# `security`: a fix of a vulnerability, a kind of its own because readers look for those first
# (Keep a Changelog's `Security` section, which `releasekb import` reads).
FEATURE_KINDS = ("new", "improvement", "fix", "security")
FIX_KINDS = ("fix", "security")  # the feature kinds that repair rather than add
CHANGE_KINDS = ("breaking", "deprecation", "removal")
LINK_KINDS = (
    "docs", "rfc", "design", "example", "tutorial", "paper", "release-notes", "source", "credit", "other",
)  # fmt: skip
# original: the notes as published; translation: a translation of them; report: an article
# about the release written by someone else (e.g. a news story), not a translation.
SOURCE_KINDS = ("original", "translation", "report")


def _real_date(value: str) -> str:
    try:
        parse_date(value)
    except ValueError as error:
        raise ValueError(f"'{value}' is not a real date ({error})") from None
    return value


NonEmptyText = Annotated[str, StringConstraints(min_length=1, strip_whitespace=False)]
# Ids, label keys and versions name files (urls.MAX_NAME_LENGTH says why they have a bound).
Slug = Annotated[str, StringConstraints(pattern=SLUG_PATTERN, max_length=MAX_NAME_LENGTH)]
Version = Annotated[str, StringConstraints(pattern=VERSION_PATTERN, max_length=MAX_NAME_LENGTH)]
Date = Annotated[str, StringConstraints(pattern=DATE_PATTERN), AfterValidator(_real_date)]
Url = Annotated[str, StringConstraints(pattern=URL_PATTERN), Field(json_schema_extra={"format": "uri"})]
# A page address inside a language's site, as in the URL table without the language prefix:
# 'changelog/1.4-to-1.7/'. A redirect's target may add a query and an anchor.
SitePath = Annotated[str, StringConstraints(pattern=r"^([a-z0-9][a-z0-9._-]*/)+$")]
RedirectTarget = Annotated[
    str, StringConstraints(pattern=r"^([a-z0-9][a-z0-9._-]*/)*(\?[A-Za-z0-9=&._-]+)?(#[A-Za-z0-9_-]+)?$")
]


def _check_vocabulary(name: str):
    """Check a value against the allowed values the validator passes in its context
    (from project.yaml); without a context (e.g. schema generation) anything goes."""

    def check(value: str, info: ValidationInfo) -> str:
        allowed = (info.context or {}).get(name)
        if name == "labels" and info.data.get("stability_stated_in") and allowed is not None:
            # a level another release's announcement stated: that release's scheme decides
            # (rules.borrowed_levels_cite_their_source), any label of the project may do here
            allowed = info.context.get("all_labels")
        if allowed is None or value in allowed:
            return value
        if not allowed:
            scheme = info.context.get("scheme")
            raise ValueError(
                f"this release uses the scheme '{scheme}', which has no labels: "
                f"remove '{info.field_name}' (the feature is then unlabeled)"
            )
        raise ValueError(not_one_of(value, allowed))

    return AfterValidator(check)


def vocabulary(name: str) -> tuple:
    """Annotations for a string whose allowed values are project.yaml's `name` vocabulary."""
    return (_check_vocabulary(name), Field(json_schema_extra={"x-vocabulary": name}))


Area = Annotated[str, *vocabulary("areas")]
Language = Annotated[str, *vocabulary("languages")]
Scheme = Annotated[str, *vocabulary("schemes")]
StabilityLabel = Annotated[str, *vocabulary("labels")]


class Strict(BaseModel):
    # strict: a number is never silently accepted as text; forbid: unknown keys are errors.
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


def _not_blank(value: str) -> str:
    if not value.strip():
        raise ValueError("text is blank")
    return value


LanguageText = Annotated[NonEmptyText, AfterValidator(_not_blank)]

# What a text whose language is missing may do (project.yaml `untranslated`): be an error, or show
# the default language's text, flagged as not yet translated.
UNTRANSLATED = ("error", "fallback")


def context_languages(context: dict | None) -> tuple[str, ...]:
    """The knowledge base's languages, which the validator passes in its context (from
    project.yaml); without a context (a JSON Schema, a test), those of a project.yaml without
    the key."""
    return tuple((context or {}).get("languages") or DEFAULT_LANGUAGES)


# The error type of a text's language key that is missing or not the knowledge base's:
# validate.py reports it at the text (missing) or at the key (unknown).
TEXT_LANGUAGE_ERROR = "text_language"


class InLanguages(BaseModel):
    """A value with one key per language of the knowledge base ({en: ..., zh: ...}). The languages
    are data (project.yaml `languages`), so they are not fields: they are the model's extra keys,
    checked against the languages the validator passes in its context. One model then serves
    every set of languages, with no model built per set."""

    # strict: a number is never silently accepted as text; extra keys are the languages.
    model_config = ConfigDict(extra="allow", strict=True, frozen=True)
    __pydantic_extra__: dict[str, LanguageText]

    @model_validator(mode="after")
    def _in_the_languages(self, info: ValidationInfo) -> InLanguages:
        languages = context_languages(info.context)
        given = self.model_extra or {}
        for lang in given:
            if lang not in languages:
                raise PydanticCustomError(
                    TEXT_LANGUAGE_ERROR,
                    "'{language}' is not a language of this knowledge base ({languages}): remove it, or add it "
                    "to `languages` in project.yaml",
                    {"language": lang, "languages": ", ".join(languages), "missing": False},
                )
        fallback = (info.context or {}).get("untranslated") == "fallback"
        for lang in languages:
            if lang not in given and not (fallback and lang != languages[0]):
                raise PydanticCustomError(
                    TEXT_LANGUAGE_ERROR,
                    "missing the '{language}' text (this knowledge base's languages: {languages})",
                    {"language": lang, "languages": ", ".join(languages), "missing": True},
                )
        return self

    def __getitem__(self, lang: str) -> str:
        return (self.model_extra or {})[lang]

    def get(self, lang: str, default: str | None = None) -> str | None:
        return (self.model_extra or {}).get(lang, default)

    @property
    def languages(self) -> tuple[str, ...]:
        """The languages this value has a text in."""
        return tuple(self.model_extra or {})


class Text(InLanguages):
    """A text in every language of the knowledge base."""


class _Multiline:
    """The marker of a multi-line text (see TextBlock); pydantic ignores it."""

    def __repr__(self) -> str:
        return "MULTILINE"


MULTILINE = _Multiline()
# A text written over several lines, where a block scalar (`>-`, `|`) is normal: summaries,
# migrations and descriptions. Line breaks and tabs are allowed in these and in no other value
# (the loader refuses them elsewhere: a title, a name or an id is one line wherever it is shown).
TextBlock = Annotated[Text, MULTILINE]


# A release file's fields carry their descriptions too: editors show them from the JSON Schema,
# and the README's reference of release files is generated from them (schema.release_reference).
class Link(Strict):
    kind: Literal[LINK_KINDS] = Field(description="What the link leads to.")
    url: Url = Field(description="Its address, `http(s)://` only.")


class Source(Strict):
    kind: Literal[SOURCE_KINDS] = Field(
        description="`original`: the notes as published; `translation`: a translation of them; `report`: an "
        "article about the release written by someone else (a news story), not a translation."
    )
    lang: Language = Field(description="The language it is written in, a code such as `en` or `zh`.")
    url: Url | None = Field(None, description="Its address, `http(s)://` only; leave it out when it has none.")
    credit: NonEmptyText | None = Field(None, description="Who wrote or translated it, when the page credits them.")


Identifier = Annotated[str, StringConstraints(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")]
KEYWORD_ONLY = "*"  # in `params`, as in a Python signature: the parameters after it are given by name only


def _distinct_params(params: list[str]) -> list[str]:
    repeated = sorted({name for name in params if params.count(name) > 1})
    if repeated:
        raise ValueError(f"`{repeated[0]}` is listed twice: name each parameter once, in the order of the signature")
    return params


def _known_params(names: list[str], info: ValidationInfo) -> list[str]:
    params = info.data.get("params")
    if params is None:  # params itself is wrong, and reported
        return names
    for name in names:
        if name == KEYWORD_ONLY or name not in params:
            listed = ", ".join(p for p in params if p != KEYWORD_ONLY)
            raise ValueError(f"`{name}` is not one of `params` ({listed}): add it there, in its place in the signature")
    return names


class CallForm(Strict):
    """The calls of an API an entry concerns, by the arguments they pass: `{params: [input, dim,
    keepdim], passed: [dim], not_passed: [keepdim]}` is a call that gives `dim`, by position or by
    name, and does not give `keepdim`."""

    params: Annotated[list[Identifier | Literal["*"]], AfterValidator(_distinct_params)] = Field(
        min_length=1,
        description="The API's parameters in the order of its signature, so that an argument given by position "
        "counts for its parameter: `[input, dim, keepdim]`. Parameters after `*` are given by name only.",
    )
    passed: Annotated[list[Identifier], AfterValidator(_known_params)] = Field(
        [], description="Parameters a call must give (every one of them), by position or by name."
    )
    not_passed: Annotated[list[Identifier], AfterValidator(_known_params)] = Field(
        [], description="Parameters a call must not give (none of them)."
    )

    @model_validator(mode="after")
    def _says_something(self) -> CallForm:
        if not self.passed and not self.not_passed:
            raise ValueError(
                "`when` names no parameter: list those a call gives under `passed`, and those it does not "
                "under `not_passed`"
            )
        both = sorted(set(self.passed) & set(self.not_passed))
        if both:
            raise ValueError(f"`{both[0]}` is both in `passed` and in `not_passed`: no call matches")
        return self


def _needs_call_use(when: CallForm | None, info: ValidationInfo) -> CallForm | None:
    if when is not None and info.data.get("use", "any") != "call":
        raise ValueError("`when` says which calls the entry concerns: it needs `use: call`")
    return when


# How a use of an API in code matches it (see `releasekb check`): "any" use of the name; only a
# "call" of it (`torch.fft(x)`, the deprecated function); or a "module" use, anything but a
# direct call (`import torch.fft`, `torch.fft.fft(x)`): one name can be both, in different entries.
API_USES = ("any", "call", "module")


class ApiUse(Strict):
    """An API an entry touches, with how a use of it in code matches and, for a change, the API
    to use instead. Written as a plain string when the defaults hold (any use, no replacement)."""

    name: NonEmptyText = Field(description="The API's canonical, fully qualified name.")
    use: Literal[API_USES] = Field(
        "any",
        description="How a use in code matches it: `any` use of the name (the default), only a `call` of it, or a "
        "`module` use, anything but a direct call.",
    )
    replacement: NonEmptyText | None = Field(None, description="For a change: the API to use instead.")
    # Whether `replacement` is a drop-in: a use can be swapped for it as it is (the default). `false`
    # says it replaces the API but takes other arguments or gives other results, so code needs the
    # change's migration (the old `torch.fft` function and `torch.fft.fft`); only with `replacement`.
    drop_in: bool | None = Field(
        None,
        description="`false`: `replacement` takes other arguments or gives other results, so code needs the "
        "change's `migration`; only with `replacement` (a drop-in by default).",
    )
    # Whether this entry brought the API: by default a `new` feature introduces its APIs (the
    # release is the lowest a use of them needs) and any other entry only touches them. `false`
    # says a new feature touches an API that existed before it (DistributedDataParallel in a
    # feature that adds Windows support).
    introduced: bool | None = Field(
        None,
        description="`false`: a `new` feature touches an API that existed before it (by default a `new` feature "
        "introduces its APIs, any other entry only touches them).",
    )
    # Only the calls that pass these arguments (the 0.2 `keepdim` default matters only where `dim`
    # is passed and `keepdim` is not): `releasekb check` reports no other call; only with `use: call`.
    when: Annotated[CallForm | None, AfterValidator(_needs_call_use)] = Field(
        None, description="The calls the entry concerns, by the arguments they pass; needs `use: call`."
    )


class Entry(Strict):
    """What one release says about one feature or change."""

    id: Slug = Field(
        description="The feature's id, an ASCII slug: its permanent address `/features/<id>/` and its anchor on "
        "the release page. A change names the feature it changes by this id."
    )
    area: Area = Field(description="The area it belongs to: a key of `areas` in project.yaml.")
    name: Text | None = Field(
        None,
        description="The feature's own name, when `title` reports this release's news about it (`... becomes "
        "stable`). Feature pages use the latest name, else the first title.",
    )
    title: Text = Field(description="One line: what this release says about it.")
    summary: TextBlock = Field(description="What it does and why it matters.")
    apis: list[NonEmptyText | ApiUse] = Field(
        [],
        description="The APIs it concerns: canonical, fully qualified names (`acme.io.read_all`, `acme::Buffer`) "
        "under a root of project.yaml's `code.roots`; a plain name, or a record saying how code uses it.",
    )
    links: list[Link] = Field([], description="Further reading.")
    aliases: list[Slug] = Field(
        [], description="Former ids of this feature (after a rename or merge): their addresses keep working."
    )
    former_anchors: list[Slug] = Field(
        [],
        description="Former anchors of this entry on its release page (it had another id there before a rename or "
        "a split): links to `/releases/<version>/#<anchor>` keep leading to it.",
    )
    example: bool = Field(
        False, description="An example `releasekb init` wrote: `validate` warns while it is in place."
    )
    imported: bool = Field(
        False,
        description="An entry `releasekb import` wrote from a changelog or GitHub releases: `validate` warns until "
        "a curator has reviewed it and removed the mark.",
    )


class FeatureEntry(Entry):
    kind: Literal[FEATURE_KINDS] = Field(
        "new", description="What the release brought (`new` when left out); `security`: a fix of a vulnerability."
    )
    # Before `stability`: its check reads it.
    stability_stated_in: Version | None = Field(
        None,
        description="The release whose announcement stated `stability`, when this release's own did not (1.5's "
        "says a feature came as experimental in 1.4).",
    )
    stability: StabilityLabel | None = Field(
        None,
        description="The level the release gave it: a label of the release's `scheme`; left out when it stated "
        "none (the feature is then unlabeled).",
    )
    part_of: Slug | None = Field(None, description="The id of the feature this one is a part of.")


class ChangeEntry(Entry):
    kind: Literal[CHANGE_KINDS] = Field(description="What the release changed incompatibly.")
    # A change names the feature it changes by its id, which an entry of this or an earlier release
    # gives (rules.changes_name_their_feature: a mistyped id would make a second feature, and leave
    # the real one at its last level). `true` says the change concerns something no release of
    # the data describes: older than the first release (Python 2 support), or behaviour rather
    # than a feature (a default that changed).
    standalone: bool = Field(
        False,
        description="`true`: the change concerns something no release of the data describes, older than the "
        "first release or behaviour rather than a feature; otherwise its `id` names a feature of this or an "
        "earlier release.",
    )
    migration: TextBlock = Field(description="What code that depends on it does now.")
    # Where a release announces what a later one will do ("1.4 is the last release to build with
    # C++11"), the change matters to everyone upgrading past that later release, including from
    # the announcing one (rules.changes_take_effect_later checks it comes after).
    takes_effect: Version | None = Field(
        None,
        description="The release in which the change takes effect, when it is later than the release that "
        'announces it (`1.4` says 1.5 needs C++14: `takes_effect: "1.5"`); it may be a release the knowledge '
        "base does not describe. An upgrade from any release before it lists the change.",
    )


class ReleaseFile(Strict):
    version: Version = Field(description="The release's version, as in the file's name (`1.8`).")
    date: Date = Field(description="The release date: `YYYY-MM-DD`, or `YYYY-MM` when only the month is known.")
    scheme: Scheme = Field(description="The set of stability labels it used: a key of `stability.schemes`.")
    title: Text = Field(description="A short headline.")
    summary: TextBlock = Field(description="What this release brought, in two to four sentences.")
    sources: list[Source] = Field(min_length=1, description="Where its content comes from: at least one.")
    highlights: list[Slug] = Field([], description="Ids of its entries that the release itself highlighted.")
    features: list[FeatureEntry] = Field([], description="What it brought: new features, improvements, fixes.")
    changes: list[ChangeEntry] = Field([], description="What it changed incompatibly, each with a `migration` text.")


# project.yaml's fields carry their descriptions: editors show them from the JSON Schema, and
# the README's reference of project.yaml is generated from them (schema.project_reference).
class ProductInfo(Strict):
    name: Text = Field(description="The product's name, in every title (`Acme DB 3.0`).")
    site_name: Text = Field(description="The site's name, in every page title and the feeds.")


class Label(Strict):
    rank: int = Field(
        description="Orders the labels: moving to a higher rank is a promotion, to a lower one a demotion; "
        "labels of equal rank are the same level."
    )
    name: Text = Field(description="The label as readers see it.")
    description: TextBlock = Field(description="What depending on a feature at this level means.")
    colour: Annotated[str, StringConstraints(pattern=HEX_COLOUR_PATTERN)] | None = Field(
        None,
        description='The label\'s colour in badges, bars and charts, `"#RRGGBB"`; without it, one of a '
        "palette, by rank. Darkened for the light scheme and lightened for the dark one as far as "
        "its badge text needs (4.5:1 contrast); two labels cannot share one.",
    )


class StabilityConfig(Strict):
    labels: dict[Slug, Label] = Field(description="The stability labels releases publish, by key.")
    schemes: dict[Slug, list[Slug]] = Field(
        description="The sets of labels a release can use (its `scheme:`); an empty set: the release "
        "published no levels, and its features are Unlabeled."
    )

    @model_validator(mode="after")
    def _distinct_colours(self) -> StabilityConfig:
        """Two labels of one colour would look like one level."""
        seen: dict[str, str] = {}
        for key, label in self.labels.items():
            if label.colour is None:
                continue
            other = seen.setdefault(label.colour.lower(), key)
            if other != key:
                raise ValueError(
                    f"the labels '{other}' and '{key}' have the same colour {label.colour}: give each its own"
                )
        return self


class GlossaryTerm(InLanguages):
    """A term and how each language writes it: `{en: scheduler, zh: 调度器, ja: スケジューラ}`."""

    LANGUAGE_KEY_DESCRIPTION: ClassVar[str] = (
        "The term in each language of `languages` (one key per language): where the first language's text "
        "uses it (a whole word, plural too), each other language's text must write it this way."
    )

    avoid: list[NonEmptyText] = Field(
        [], description="Renderings that must never appear in a translated text (`变压器` for Transformer)."
    )

    def pattern(self, lang: str) -> re.Pattern[str]:
        """Where a text in `lang` uses the term. In a script that separates words with spaces, a
        whole word, case-insensitive, plural allowed ('scheduler' matches 'Schedulers'); in Han,
        kana or Hangul, the term anywhere."""
        term = self[lang]
        if has_han_or_kana(term) or has_hangul(term):
            return re.compile(re.escape(term), re.IGNORECASE)
        return re.compile(rf"(?<![\w-]){re.escape(term)}(e?s)?(?![\w-])", re.IGNORECASE)


PYTHON = "python"  # the language of `code.roots` whose names are dotted Python names


def code_language(name: str, roots: dict[str, list[str]]) -> str | None:
    """The `code.roots` language an API name belongs to: python when its first dotted segment is a
    Python root (`torch.fft`), else the language whose root it starts with (`torch::nn`).

    >>> code_language("torch.fft", {"python": ["torch"], "cpp": ["torch::"]}), code_language("F.pad", {})
    ('python', None)
    >>> code_language("torch::nn::Linear", {"python": ["torch"], "cpp": ["torch::"]})
    'cpp'
    """
    if name.split(".", 1)[0] in roots.get(PYTHON, ()):
        return PYTHON
    return next(
        (language for language, prefixes in roots.items() if language != PYTHON and name.startswith(tuple(prefixes))),
        None,
    )


def suggested_code_section(names: list[str]) -> str:
    """The `code:` section of project.yaml that makes dotted API names code, their top-level
    packages as Python roots: what a message about a missing one says to write.

    >>> suggested_code_section(["acme.widget", "acme.io.read", "torch::nn::Linear"])
    'code: {roots: {python: [acme]}}'
    """
    roots = sorted({head for name in names if (head := name.split(".", 1)[0]) != name and head.isidentifier()})
    return f"code: {{roots: {{python: [{', '.join(roots) or '<package>'}]}}}}"


class CodeConfig(Strict):
    """Which API names are code, so that `releasekb check` can find them in a codebase."""

    roots: dict[Slug, list[NonEmptyText]] = Field(
        description="Language -> the roots of its API names. `python` roots are top-level packages: names "
        "under them are dotted Python names, found in Python files and notebooks. Other languages' roots "
        "are name prefixes (`acme::`), found as whole tokens in the files `files` lists."
    )
    abbreviations: dict[NonEmptyText, NonEmptyText] = Field(
        {},
        description="Short forms people write for a module (`io`: `acme.io`): `validate` suggests the qualified name.",
    )
    files: dict[Slug, list[NonEmptyText]] = Field(
        {},
        description="Language -> the file patterns `releasekb check --include` reads for it (`*.cpp`); "
        "Python files and notebooks are always read.",
    )


class NotesConfig(Strict):
    """Which changes need a note (releases/unreleased/), for `releasekb notes --check` in a pull request."""

    required_for: list[NonEmptyText] = Field(
        min_length=1,
        description="Glob patterns of the files, relative to the repository's root, where `*` matches across "
        "folders (`src/*`, `*.py`): a branch that changes one of them adds a note, or `releasekb notes --check` "
        "fails it.",
    )
    skip_marker: NonEmptyText = Field(
        "[skip notes]",
        description="Text that, in the message of a commit on the branch, says it needs no note (a typo fix).",
    )
    skip_label: NonEmptyText = Field(
        "no-notes",
        description="The pull-request label that says the same: CI passes the pull request's labels with "
        "`--labels` (or `RELEASEKB_LABELS`).",
    )


def _language_codes(languages: list[str], info: ValidationInfo) -> list[str]:
    data_dir = (info.context or {}).get("data_dir")  # a team's own locales/<lang>.yaml count too
    for lang in languages:
        if not has_interface_strings(lang, data_dir):
            raise ValueError(
                f"'{lang}' is not a language the site has interface strings for "
                f"({', '.join(known_languages(data_dir))}; `releasekb locale {lang}` starts its file)"
            )
    repeated = sorted({lang for lang in languages if languages.count(lang) > 1})
    if repeated:
        raise ValueError(f"'{repeated[0]}' is listed twice: name each language once")
    return languages


class ProjectFile(Strict):
    languages: Annotated[list[str], AfterValidator(_language_codes)] = Field(
        list(DEFAULT_LANGUAGES),
        min_length=1,
        description="The knowledge base's languages, in order: every text is written in each. The first is the "
        "default, served at the site root; the others under `/<code>/`. Without the key: "
        f"`[{', '.join(DEFAULT_LANGUAGES)}]`.",
    )
    untranslated: Literal[UNTRANSLATED] = Field(
        "error",
        description="A text missing in a language other than the first: `error`, or `fallback` (the page shows "
        "the first language's text, marked as not yet translated; `releasekb translations` lists them).",
    )
    product: ProductInfo = Field(description="The product the knowledge base describes.")
    areas: dict[Slug, Text] = Field(
        description="The areas an entry belongs to (its `area:`), by key; the features index filters by them."
    )
    stability: StabilityConfig = Field(description="The stability vocabulary of the product's releases.")
    glossary: list[GlossaryTerm] = Field([], description="Terms every language must translate one way.")
    code: CodeConfig | None = Field(
        None, description="Which API names (`apis:`) are code, for `releasekb check`; without it, check finds nothing."
    )
    notes: NotesConfig | None = Field(
        None,
        description="Which changes need a note, for `releasekb notes --check`; without it, every branch passes.",
    )
    site_url: Url | None = Field(
        None,
        description="The knowledge base's public address (`https://kb.example.org/`): `releasekb check` "
        "gives absolute links to its pages with it. The site's own address is `site_url` in `mkdocs.yml`.",
    )
    # The product's releases between those described that no release file describes: every view
    # of a range (upgrade, changelog, a feature's history, the API, `check`) names those inside it,
    # so that no reader takes a range for complete (rules.undescribed_releases_are_not_described).
    releases_not_described: list[Version] = Field(
        [],
        description='The product\'s releases that the knowledge base does not describe (`["1.6"]`): every view '
        "of a range of releases, and `releasekb check`, says which of them lie inside it. None may have a "
        "release file.",
    )
    # A frozen list: it grows only when a page is renamed, never per release.
    redirects: dict[SitePath, RedirectTarget] = Field(
        {}, description="Former addresses that no longer hold a page -> where their content is now (`changelog/`)."
    )
