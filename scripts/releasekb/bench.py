"""`releasekb bench`: how the build scales, measured against plain MkDocs in the same run.

For each shape (releases x entries per release) a synthetic corpus shaped like the real data
is written: texts of realistic length in both languages, features introduced, promoted,
improved, extended (`part_of`), deprecated, broken and removed across releases; the same
`--seed` always gives the same corpus. After one untimed warm-up build, per shape:

- load, validate, catalog and render are timed in this process (best of --repeat runs);
- the real build is timed as a curator runs it, `releasekb build` in a copy of the project,
  so it measures whatever the build does today; its peak memory is the largest sum of the
  resident memory of the build process and its workers, sampled from /proc;
- the baseline: plain MkDocs + Material + search (the project's own configuration without
  the ReleaseKB hook) builds one plain Markdown page per generated page, carrying the same
  text in both languages, one language after the other as `mkdocs build` would.

Ratios reported: build / plain MkDocs per shape; twice the releases and twice the entries
per release against the first shape; pages per second; peak memory; the largest HTML page.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import yaml

from releasekb.i18n import DEFAULT_LANGUAGE, LANGUAGES, url_prefix

# The pipeline's modules are imported where they are timed, so that `releasekb --help` and
# every other command do not pay for them.

DEFAULT_SHAPES = ("20x60", "40x60", "20x120", "80x60")
SMOKE_SHAPES = ("2x6", "4x6", "2x12")
WARM_UP_SHAPE = "2x4"
STAGES = ("load", "validate", "catalog", "render", "build", "plain_mkdocs")
SCHEMA_LINE = "# yaml-language-server: $schema=release.schema.json"

# ------------------------------------------------------------------------- synthetic corpus

AREAS = {
    "core": ("Core tensors and operators", "核心张量与算子"),
    "autodiff": ("Automatic differentiation", "自动微分"),
    "layers": ("Layers and losses", "网络层与损失函数"),
    "training": ("Optimizers and training loops", "优化器与训练循环"),
    "data": ("Data loading", "数据加载"),
    "distributed": ("Distributed training", "分布式训练"),
    "compiler": ("Compiler and graph capture", "编译器与计算图捕获"),
    "mobile": ("Mobile and edge", "移动端与边缘设备"),
    "hardware": ("Accelerators and hardware", "加速器与硬件"),
    "export": ("Export and interchange", "导出与模型交换"),
}
LEVELS = {  # key: rank, English name, Chinese name, English description, Chinese description
    "stable": (
        3, "Stable", "稳定",
        "Safe to depend on; changes follow the deprecation policy.", "可以放心依赖，变更遵循弃用策略。",
    ),
    "beta": (2, "Beta", "测试版", "Feature-complete, but the API may still change.", "功能已完整，但接口仍可能调整。"),
    "prototype": (
        1, "Prototype", "原型",
        "Early access for feedback; may change or go away.", "为收集反馈而提前开放，可能改变或被移除。",
    ),
}  # fmt: skip
NOUNS = (
    "tensor", "kernel", "graph", "buffer", "optimizer", "sampler", "module", "profiler", "stream",
    "allocator", "checkpoint", "scheduler", "quantizer", "exporter", "backend", "operator", "layout",
    "gradient", "parameter", "dataset", "device", "compiler", "pipeline", "shard", "hook", "runtime",
)  # fmt: skip
VERBS = (
    "supports", "speeds up", "simplifies", "adds", "extends", "reduces", "improves", "exposes",
    "replaces", "unifies", "documents", "validates", "caches", "streams", "overlaps", "fuses",
)  # fmt: skip
ADJECTIVES = (
    "sparse", "mixed-precision", "asynchronous", "distributed", "nested", "quantized", "dynamic",
    "static", "batched", "fused", "lazy", "deterministic", "memory-efficient", "channels-last",
)  # fmt: skip
ZH_WORDS = (
    "张量", "内核", "计算图", "缓冲区", "优化器", "采样器", "模块", "性能分析器", "数据流", "内存分配器",
    "检查点", "调度器", "量化器", "导出器", "后端", "算子", "内存布局", "梯度", "参数", "数据集", "设备",
    "编译器", "流水线", "分片", "钩子", "运行时", "稀疏", "混合精度", "异步", "分布式", "嵌套", "动态",
    "静态", "批处理", "融合", "惰性求值", "确定性", "节省内存", "支持", "加速", "简化", "新增", "扩展",
    "减少", "改进", "公开", "替换", "统一", "校验", "缓存",
)  # fmt: skip


class Corpus:
    """Writes a synthetic data folder; every choice comes from one seeded random generator."""

    def __init__(self, releases: int, per_release: int, seed: int):
        self.releases, self.per_release = releases, per_release
        self.random = random.Random(f"{seed}:{releases}x{per_release}")
        self.next_id = 0  # numbers feature ids
        self.serial = 0  # numbers titles, which must be unique within a release

    def words(self, count: int) -> str:
        pick = self.random.choice
        return " ".join(pick((pick(NOUNS), pick(VERBS), pick(ADJECTIVES))) for _ in range(count))

    def zh_words(self, count: int) -> str:
        return "".join(self.random.choice(ZH_WORDS) for _ in range(count))

    def text(self, words: int, label: str, zh_label: str) -> dict[str, str]:
        """English of about `words` words and Chinese of about the same length, each starting
        with its label (like 'Feature 12' / '第 12 项特性')."""
        api = f"`bench.{self.random.choice(NOUNS)}_{self.next_id}()`"
        english = f"{label}: {self.words(words // 2)} with {api}. {self.words(words - words // 2)}."
        chinese = f"{zh_label}：{self.zh_words(words // 2)}，使用 {api}。{self.zh_words(words // 2)}。"
        return {"en": english, "zh": chinese}

    def title(self) -> dict[str, str]:
        self.serial += 1
        return self.text(8, f"Item {self.serial}", f"第 {self.serial} 项")

    def name(self, feature_id: str) -> dict[str, str]:
        number = feature_id.rsplit("-", 1)[1]
        return self.text(4, f"Feature {number}", f"第 {number} 号特性")

    def project(self) -> dict:
        return {
            "product": {
                "name": {"en": "Benchmark product", "zh": "基准测试产品"},
                "site_name": {"en": "Benchmark release notes", "zh": "基准测试版本说明"},
            },
            "areas": {key: {"en": en, "zh": zh} for key, (en, zh) in AREAS.items()},
            "stability": {
                "labels": {
                    key: {"rank": rank, "name": {"en": en, "zh": zh}, "description": {"en": den, "zh": dzh}}
                    for key, (rank, en, zh, den, dzh) in LEVELS.items()
                },
                "schemes": {"stable-beta-prototype": list(LEVELS)},
            },
        }

    def write(self, data_dir: Path) -> None:
        from releasekb.validate import PROJECT_FILE

        data_dir.mkdir(parents=True)
        header = "# yaml-language-server: $schema=project.schema.json\n"
        (data_dir / PROJECT_FILE).write_text(header + _dump(self.project()), encoding="utf-8")
        alive: dict[str, tuple[str, int]] = {}  # id -> (area, rank); features one may still mention
        deprecated: set[str] = set()
        for number in range(self.releases):
            version = f"{1 + number // 10}.{number % 10}"
            features, changes = self._release_entries(alive, deprecated)
            year, month = 2015 + number // 12, number % 12 + 1
            release = {
                "version": version,
                "date": f"{year}-{month:02d}-15",
                "scheme": "stable-beta-prototype",
                "title": {"en": f"Release {version}", "zh": f"{version} 版本"},
                "summary": self.text(60, f"Release {version}", f"{version} 版本"),
                "sources": [{"kind": "original", "lang": "en", "url": f"https://example.org/notes/{version}"}],
                "highlights": [entry["id"] for entry in features if entry.get("kind", "new") == "new"][:3],
                "features": features,
                "changes": changes,
            }
            (data_dir / f"{version}.yaml").write_text(SCHEMA_LINE + "\n" + _dump(release), encoding="utf-8")

    def _release_entries(self, alive: dict, deprecated: set) -> tuple[list[dict], list[dict]]:
        """`per_release` entries: mostly new features, some returning ones (promotions,
        improvements), additions to earlier features, deprecations, breaking changes, removals."""
        features, changes, mentioned = [], [], set()
        earlier = sorted(alive)
        for _ in range(self.per_release):
            roll = self.random.random()
            candidates = [i for i in earlier if i not in mentioned]
            if candidates and roll < 0.25:
                feature_id = self.random.choice(candidates)
                mentioned.add(feature_id)
                area, rank = alive[feature_id]
                if roll < 0.15:  # mentioned again: promoted when it can be, else improved
                    rank = min(rank + 1, 3)
                    alive[feature_id] = (area, rank)
                    features.append(self._feature(feature_id, area, rank, kind="improvement", named=True))
                else:
                    changes.append(self._change(feature_id, area, alive, deprecated))
                continue
            self.next_id += 1
            feature_id = f"{self.random.choice(NOUNS)}-{self.random.choice(NOUNS)}-{self.next_id}"
            area, rank = self.random.choice(list(AREAS)), self.random.choice((1, 1, 2, 2, 3))
            parent = self.random.choice(earlier) if earlier and roll < 0.32 else None
            kind = "fix" if roll > 0.95 else "new"
            features.append(self._feature(feature_id, area, rank, kind=kind, part_of=parent))
            mentioned.add(feature_id)
            if kind == "new":
                alive[feature_id] = (area, rank)
        return features, changes

    def _feature(self, feature_id: str, area: str, rank: int, *, kind: str, named=False, part_of=None) -> dict:
        level = next(key for key, spec in LEVELS.items() if spec[0] == rank)
        entry = {"id": feature_id, "area": area, "stability": level}
        if kind != "new":
            entry["kind"] = kind
        if named:
            entry["name"] = self.name(feature_id)
        if part_of:
            entry["part_of"] = part_of
        entry["title"] = self.title()
        entry["summary"] = self.text(45, "Summary", "摘要")
        entry["apis"] = [f"bench.{feature_id.replace('-', '_')}"]
        entry["links"] = [{"kind": "docs", "url": f"https://example.org/docs/{feature_id}"}]
        return entry

    def _change(self, feature_id: str, area: str, alive: dict, deprecated: set) -> dict:
        if feature_id in deprecated:
            kind = "removal"
            del alive[feature_id]
        else:
            kind = self.random.choice(("deprecation", "breaking"))
            if kind == "deprecation":
                deprecated.add(feature_id)
        return {
            "id": feature_id,
            "kind": kind,
            "area": area,
            "name": self.name(feature_id),
            "title": self.title(),
            "summary": self.text(40, "Change", "变更"),
            "migration": self.text(25, "Migration", "迁移"),
        }


def _dump(data: dict) -> str:
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=10_000)


# ------------------------------------------------------------------------------- measuring


def best_time(action, repeat: int):
    """(seconds of the fastest run, the last run's result)."""
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = action()
        best = min(best, time.perf_counter() - start)
    return best, result


def _tree_rss(root: int) -> int:
    """Resident bytes of a process and all its descendants (Linux /proc)."""
    parents: dict[int, int] = {}
    rss: dict[int, int] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", encoding="ascii", errors="replace") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry.name)] = int(fields[1])
        rss[int(entry.name)] = int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
    tree, frontier = {root}, [root]
    while frontier:
        children = [pid for pid, parent in parents.items() if parent in frontier and pid not in tree]
        tree.update(children)
        frontier = children
    return sum(rss.get(pid, 0) for pid in tree)


def run_measured(command: list[str], cwd: Path) -> tuple[float, int]:
    """Run a command; return (wall seconds, peak resident bytes of its process tree).
    Raises RuntimeError with the command's output when it fails."""
    # A cache folder of its own (empty): the build segments all of its new corpus' Chinese
    # text, as a first build does, and leaves the user's cache alone.
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "XDG_CACHE_HOME": str(cwd / ".cache")}
    start = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    peak, done = 0, threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, _tree_rss(process.pid))
            done.wait(0.05)

    sampler = threading.Thread(target=sample, daemon=True) if Path("/proc/self/stat").exists() else None
    if sampler:
        sampler.start()
    output, _ = process.communicate()
    seconds = time.perf_counter() - start
    done.set()
    if sampler:
        sampler.join()
    if process.returncode != 0:
        tail = output.decode(errors="replace")[-3000:]
        raise RuntimeError(f"{' '.join(command)} failed in {cwd}:\n{tail}")
    return seconds, peak


def copy_project(root: Path, target: Path, data_dir: Path) -> Path:
    """The project's site sources (configurations, hand-written docs, the package for the
    hook) with `data_dir` as its releases/."""
    from releasekb.urls import GENERATED_PATHS

    target.mkdir(parents=True)
    for config in root.glob("mkdocs*.yml"):
        shutil.copy(config, target / config.name)
    shutil.copytree(root / "scripts", target / "scripts", ignore=shutil.ignore_patterns("__pycache__"))
    docs = root / "docs"
    for item in docs.iterdir():
        if item.is_dir() and item.name not in LANGUAGES:
            shutil.copytree(item, target / "docs" / item.name)
    for lang in LANGUAGES:
        (target / "docs" / lang).mkdir(parents=True, exist_ok=True)
        for page in (docs / lang).glob("*") if (docs / lang).is_dir() else []:
            if page.is_file() and page.name not in GENERATED_PATHS:
                shutil.copy(page, target / "docs" / lang / page.name)
    shutil.copytree(data_dir, target / "releases")
    return target


_FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.S)
_HEADING = re.compile(r"<h([1-6])[^>]*>(.*?)</h\1>")
_BLOCK_END = re.compile(r"</(?:p|li|tr|div|table|ul|section|form)>|<br>")
_TAG = re.compile(r"<[^>]+>")


def plain_markdown(page_html: str) -> str:
    """A generated page's text as plain Markdown: its headings as Markdown headings, every
    paragraph, list item and table row a paragraph, every other tag dropped."""
    text = _FRONT_MATTER.sub("", page_html)
    text = _HEADING.sub(lambda m: f"\n\n{'#' * int(m[1])} {_TAG.sub('', m[2]).replace('&para;', '')}\n\n", text)
    text = _BLOCK_END.sub("\n\n", text)
    lines = (line.strip() for line in _TAG.sub(" ", text).splitlines())  # 4 spaces would make code
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines))


def plain_project(root: Path, target: Path, pages: dict[str, str]) -> list[Path]:
    """Plain MkDocs over the same pages: the project's configurations without the ReleaseKB
    hook and the theme overrides that rely on it (and not strict: plain text keeps no promise
    about links), one plain Markdown page per generated page with its text (plain_markdown).
    Returns the configurations, one per language."""
    target.mkdir(parents=True)
    for config in root.glob("mkdocs*.yml"):
        text = config.read_text(encoding="utf-8")
        text = re.sub(r"^hooks:\n(?:[ \t]+-.*\n)+", "", text, flags=re.M)
        text = re.sub(r"^[ \t]+custom_dir:.*\n", "", text, flags=re.M)
        text = re.sub(r"^strict: true$", "strict: false", text, flags=re.M)
        (target / config.name).write_text(text, encoding="utf-8")
    for item in (root / "docs").iterdir():
        if item.is_dir() and item.name not in (*LANGUAGES, "overrides"):
            shutil.copytree(item, target / "docs" / item.name)
    for path, html in pages.items():
        page = target / "docs" / path
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(plain_markdown(html), encoding="utf-8")
    stem = "mkdocs"
    return [target / (f"{stem}.yml" if lang == DEFAULT_LANGUAGE else f"{stem}.{lang}.yml") for lang in LANGUAGES]


@dataclass
class ShapeResult:
    shape: str
    releases: int
    entries_per_release: int
    features: int = 0  # distinct ids (features and changes) in the catalog
    entries: int = 0
    pages_per_language: int = 0  # generated Markdown pages
    html_pages: int = 0  # index.html files of the built site, every language
    seconds: dict[str, float] = field(default_factory=dict)  # stage -> seconds
    build_peak_mb: float = 0.0
    plain_peak_mb: float = 0.0
    largest_html_page: str = ""
    largest_html_mb: float = 0.0
    search_index_mb: dict[str, float] = field(default_factory=dict)
    pages_per_second: float = 0.0
    build_vs_plain: float = 0.0


def measure_shape(shape: str, root: Path, work: Path, seed: int, repeat: int, log) -> ShapeResult:
    from releasekb.catalog import build_catalog
    from releasekb.loader import load_document
    from releasekb.render import render_all
    from releasekb.validate import PROJECT_FILE, load_data, release_paths

    releases, per_release = parse_shape(shape)
    result = ShapeResult(shape, releases, per_release)
    data_dir = work / "releases"
    log(f"{shape}: writing the corpus ({releases} releases x {per_release} entries, seed {seed})")
    Corpus(releases, per_release, seed).write(data_dir)

    files = [data_dir / PROJECT_FILE, *release_paths(data_dir)]
    result.seconds["load"], _ = best_time(lambda: [load_document(path) for path in files], repeat)
    load_and_validate, data = best_time(lambda: load_data(data_dir), repeat)
    result.seconds["validate"] = max(load_and_validate - result.seconds["load"], 0.0)
    result.seconds["catalog"], catalog = best_time(lambda: build_catalog(data), repeat)
    result.seconds["render"], pages = best_time(lambda: render_all(catalog), repeat)
    result.features = len(catalog.features)
    result.entries = sum(len(release.entries) for release in catalog.releases)
    pages = {path: text for path, text in pages.items() if path.endswith(".md")}  # not the features' filter text
    result.pages_per_language = len(pages) // len(LANGUAGES)
    log(f"{shape}: {result.features} features, {result.pages_per_language} pages per language; pipeline timed")

    log(f"{shape}: releasekb build ...")
    project = copy_project(root, work / "project", data_dir)
    command = [sys.executable, "-m", "releasekb.cli", "build"]
    result.seconds["build"], peak = run_measured(command, project)
    result.build_peak_mb = peak / 2**20
    site = project / "site"
    html = list(site.rglob("*.html"))
    result.html_pages = sum(1 for path in html if path.name == "index.html")
    largest = max(html, key=lambda path: path.stat().st_size)
    result.largest_html_page = "/" + str(largest.parent.relative_to(site)).removeprefix(".") + "/"
    result.largest_html_mb = largest.stat().st_size / 2**20
    for lang in LANGUAGES:
        index = site / url_prefix(lang) / "search" / "search_index.json"
        result.search_index_mb[lang] = index.stat().st_size / 2**20 if index.is_file() else 0.0
    log(f"{shape}: built {result.html_pages} HTML pages in {result.seconds['build']:.1f} s")

    log(f"{shape}: plain MkDocs baseline ...")
    plain_seconds, plain_peak = 0.0, 0
    for config in plain_project(root, work / "plain", pages):
        seconds, peak = run_measured([sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(config)], config.parent)
        plain_seconds, plain_peak = plain_seconds + seconds, max(plain_peak, peak)
    result.seconds["plain_mkdocs"] = plain_seconds
    result.plain_peak_mb = plain_peak / 2**20
    result.pages_per_second = result.html_pages / result.seconds["build"]
    result.build_vs_plain = result.seconds["build"] / plain_seconds
    log(f"{shape}: plain MkDocs {plain_seconds:.1f} s; build / plain = {result.build_vs_plain:.2f}")
    return result


def parse_shape(shape: str) -> tuple[int, int]:
    match = re.fullmatch(r"([1-9][0-9]*)x([1-9][0-9]*)", shape)
    if not match:
        raise argparse.ArgumentTypeError(f"'{shape}' is not a shape like 20x60 (releases x entries per release)")
    return int(match[1]), int(match[2])


def _shape_argument(shape: str) -> str:
    parse_shape(shape)
    return shape


def ratios(results: list[ShapeResult]) -> dict[str, float | None]:
    """Growth against the first shape: twice the releases, twice the entries per release."""
    base = results[0]
    by_shape = {(r.releases, r.entries_per_release): r for r in results}

    def ratio(releases: int, per_release: int) -> float | None:
        other = by_shape.get((releases, per_release))
        return other.seconds["build"] / base.seconds["build"] if other else None

    return {
        "base_shape": base.shape,
        "double_releases_build": ratio(2 * base.releases, base.entries_per_release),
        "double_entries_per_release_build": ratio(base.releases, 2 * base.entries_per_release),
    }


def table(results: list[ShapeResult], growth: dict) -> str:
    columns = (
        ("shape", lambda r: r.shape),
        ("features", lambda r: str(r.features)),
        ("HTML pages", lambda r: str(r.html_pages)),
        *((stage, lambda r, s=stage: f"{r.seconds[s]:.2f} s") for stage in STAGES),
        ("build/plain", lambda r: f"{r.build_vs_plain:.2f}x"),
        ("pages/s", lambda r: f"{r.pages_per_second:.0f}"),
        ("peak MB", lambda r: f"{r.build_peak_mb:.0f}"),
        ("largest page", lambda r: f"{r.largest_html_mb:.2f} MB"),
        ("search index", lambda r: " ".join(f"{lang} {mb:.1f} MB" for lang, mb in r.search_index_mb.items())),
    )
    rows = [[name for name, _ in columns]] + [[cell(r) for _, cell in columns] for r in results]
    widths = [max(len(row[i]) for row in rows) for i in range(len(columns))]
    lines = ["  ".join(value.rjust(width) for value, width in zip(row, widths, strict=True)) for row in rows]
    lines.insert(1, "  ".join("-" * width for width in widths))
    base = growth["base_shape"]
    for key, label in (("double_releases_build", "2x releases"), ("double_entries_per_release_build", "2x entries")):
        value = growth[key]
        lines.append(f"{label} (vs {base}): " + (f"build {value:.2f}x the time" if value else "shape not measured"))
    return "\n".join(lines)


def run(shapes: list[str], *, seed: int, repeat: int, root: Path, keep: Path | None = None) -> tuple[dict, str]:
    """Measure every shape; return the JSON-ready report and the table for the terminal."""

    def log(message: str) -> None:
        print(f"bench: {message}", file=sys.stderr, flush=True)

    results = []
    with tempfile.TemporaryDirectory(prefix="releasekb-bench-") as tmp:
        # Untimed: the first build of a session also compiles bytecode and fills jieba's
        # cache, which would make the first (base) shape look slow and the ratios too good.
        log(f"warm-up (untimed): {WARM_UP_SHAPE}")
        measure_shape(WARM_UP_SHAPE, root, Path(tmp) / "warm-up", seed, 1, lambda message: None)
        for shape in shapes:
            work = (keep or Path(tmp)) / shape
            shutil.rmtree(work, ignore_errors=True)
            results.append(measure_shape(shape, root, work, seed, repeat, log))
    report = {
        "seed": seed,
        "cpus": os.cpu_count(),
        "python": sys.version.split()[0],
        "stages": list(STAGES),
        "shapes": [asdict(r) for r in results],
        "ratios": ratios(results),
    }
    return report, table(results, report["ratios"])


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--shape",
        action="append",
        type=_shape_argument,
        help="releases x entries per release, like 20x60; repeat for several; the first is the base "
        f"the 2x ratios compare with (default: {' '.join(DEFAULT_SHAPES)})",
    )
    parser.add_argument("--smoke", action="store_true", help=f"tiny shapes for CI ({' '.join(SMOKE_SHAPES)})")
    parser.add_argument("--seed", type=int, default=7, help="corpus seed: the same seed writes the same data")
    parser.add_argument("--repeat", type=int, default=3, help="in-process stages: best of this many runs")
    parser.add_argument("--json", action="store_true", help="print the report as JSON instead of a table")
    parser.add_argument("--keep", type=Path, help="keep each shape's corpus, project and sites under this folder")
    parser.add_argument(
        "--config", default="mkdocs.yml", help="the project's MkDocs configuration (default: mkdocs.yml)"
    )


def main(args: argparse.Namespace) -> int:
    """`releasekb bench`, run from the project root (where mkdocs.yml is)."""
    root = Path(args.config).resolve().parent
    if not (root / Path(args.config).name).is_file():
        print(f"releasekb bench: {args.config} not found (run it from the project root)", file=sys.stderr)
        return 2
    shapes = list(SMOKE_SHAPES) if args.smoke else args.shape or list(DEFAULT_SHAPES)
    try:
        report, text = run(shapes, seed=args.seed, repeat=args.repeat, root=root, keep=args.keep)
    except RuntimeError as error:
        print(f"releasekb bench: {error}", file=sys.stderr)
        return 1
    print(json.dumps(report, indent=2) if args.json else text)
    return 0
