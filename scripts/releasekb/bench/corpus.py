"""The synthetic knowledge base the bench builds and the scale tests load: texts of realistic
length in both languages, features introduced, promoted, improved, extended (`part_of`),
deprecated, broken and removed across releases; the same seed always gives the same corpus.

Its own module because the tests use it without the bench, and the bench's measuring is a
separate job from what it measures.
"""

from __future__ import annotations

import random
from pathlib import Path

import yaml

RELEASE_SCHEMA_LINE = "# yaml-language-server: $schema=release.schema.json"

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
        from releasekb.kb.validate import PROJECT_FILE

        data_dir.mkdir(parents=True)
        header = "# yaml-language-server: $schema=project.schema.json\n"
        (data_dir / PROJECT_FILE).write_text(header + dump_yaml(self.project()), encoding="utf-8")
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
            (data_dir / f"{version}.yaml").write_text(RELEASE_SCHEMA_LINE + "\n" + dump_yaml(release), encoding="utf-8")

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


def dump_yaml(data: dict) -> str:
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=10_000)
