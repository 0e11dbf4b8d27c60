"""The deploy workflow and the pre-commit hooks: they parse, and their commands are the project's own."""

import re
import shlex
import subprocess
import sys
from pathlib import Path

import yaml

from helpers import ROOT, fixture_data

BIN = Path(sys.executable).parent  # the environment running the tests has releasekb installed


def readme_block(marker: str) -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.search(rf"<!-- {marker} -->\n```bash\n(.*?)\n```", readme, re.S).group(1)


def workflow() -> dict:
    return yaml.safe_load((ROOT / ".github" / "workflows" / "deploy.yml").read_text(encoding="utf-8"))


def build_steps() -> dict[str, dict]:
    return {step.get("name") or step["uses"].split("@")[0]: step for step in workflow()["jobs"]["build"]["steps"]}


def test_workflow_installs_with_the_readme_command_and_builds_with_releasekb():
    steps = build_steps()
    install = readme_block("main command").removesuffix(" && .venv/bin/releasekb serve")
    assert steps["Install"]["run"] == install
    assert steps["Build"]["run"] == ".venv/bin/releasekb build"
    assert steps["Validate"]["run"].startswith(".venv/bin/releasekb validate")
    assert steps["actions/upload-pages-artifact"]["with"]["path"] == "site"  # releasekb build's output


def test_workflow_publishes_through_github_pages_actions():
    flow = workflow()
    uses = [step.get("uses", "").split("@")[0] for job in flow["jobs"].values() for step in job["steps"]]
    for action in ("actions/configure-pages", "actions/upload-pages-artifact", "actions/deploy-pages"):
        assert action in uses
    assert flow["permissions"] == {"contents": "read", "pages": "write", "id-token": "write"}
    assert flow["jobs"]["deploy"]["needs"] == "build"
    assert flow["jobs"]["deploy"]["environment"]["name"] == "github-pages"


def test_site_url_comes_from_the_one_variable_mkdocs_yml_reads():
    (variable,) = build_steps()["Build"]["env"]
    assert f"site_url: !ENV [{variable}, null]" in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert not (ROOT / "mkdocs.zh.yml").exists()  # every language is built from mkdocs.yml


def published_hooks() -> dict[str, dict]:
    """The hooks other repositories can use, by id."""
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    by_id = {hook["id"]: hook for hook in hooks}
    assert len(by_id) == len(hooks), "two published hooks share an id"
    return by_id


def published_hook() -> dict:
    """The validation hook, the one this repository uses itself."""
    return published_hooks()["releasekb-validate"]


def run_hook_entry(entry: str, data: Path, *args: str) -> subprocess.CompletedProcess:
    command = shlex.split(entry)
    command[0] = str(BIN / Path(command[0]).name)  # as installed in the hook's environment
    return subprocess.run([*command, *args], capture_output=True, text=True, cwd=data.parent)


def test_published_hook_has_what_pre_commit_requires():
    for hook in published_hooks().values():
        assert {"id", "name", "entry", "language"} <= set(hook), hook["id"]
        assert hook["language"] == "python" and hook["entry"].startswith("releasekb "), hook["id"]
    hook = published_hook()
    files = re.compile(hook["files"])
    for path in ("releases/1.7.yaml", "releases/project.yaml", "releases/translations.lock", "kb/data/1.10.yaml"):
        assert files.search(path), path
    for path in ("mkdocs.yml", "releases/release.schema.json", ".github/workflows/deploy.yml"):
        assert not files.search(path), path


def test_published_hook_entry_passes_valid_data_and_fails_placeholders(tmp_path):
    hook = published_hook()
    data = fixture_data(tmp_path)
    assert run_hook_entry(hook["entry"], data).returncode == 0
    # another repository's data folder, given through the hook's `args:`
    elsewhere = fixture_data(tmp_path / "other")
    moved = elsewhere.rename(tmp_path / "other" / "kb-data")
    assert run_hook_entry(hook["entry"], data, "--data", str(moved)).returncode == 0
    text = (data / "1.1.yaml").read_text(encoding="utf-8")
    (data / "1.1.yaml").write_text(text.replace('date: "2020-06"', "date: TODO"), encoding="utf-8")
    result = run_hook_entry(hook["entry"], data)
    assert result.returncode == 1 and "date: still the TODO placeholder" in result.stderr


def test_this_repository_uses_the_published_hook():
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    (repo,) = config["repos"]
    (local,) = repo["hooks"]
    hook = published_hook()
    for key in ("id", "name", "files", "pass_filenames"):
        assert local[key] == hook[key], key
    assert local["entry"] == f".venv/bin/{hook['entry']}"  # the README's environment
