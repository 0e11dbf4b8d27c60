"""The command line: cli.py dispatches over one module per command (commands/), and answers
`--help` without importing what the commands run."""

import subprocess
import sys

from helpers import REAL_RELEASES, ROOT
from releasekb import cli
from releasekb.site.contract import contract_text

COMMAND_MODULES = ROOT / "scripts" / "releasekb" / "commands"

# Print which modules of the site engines are loaded after `releasekb --help` and every
# `releasekb COMMAND --help`: building the whole parser, as every run does.
HELP_IMPORTS = """
import sys
from releasekb import cli

for argv in [["--help"], *([command.NAME, "--help"] for command in cli.COMMANDS)]:
    try:
        cli.main(argv)
    except SystemExit:
        pass
print(sorted(name for name in sys.modules if name.split(".")[0] in {"mkdocs", "properdocs", "material", "jinja2"}))
"""


def test_every_command_module_is_in_the_one_list():
    # A command named by a Python keyword has its module named with a trailing underscore (import_.py).
    modules = {path.stem.removesuffix("_") for path in COMMAND_MODULES.glob("*.py") if path.stem != "__init__"}
    assert sorted(command.NAME for command in cli.COMMANDS) == sorted(modules)
    assert all(command.__name__.rstrip("_") == f"releasekb.commands.{command.NAME}" for command in cli.COMMANDS)


def test_help_imports_neither_the_engine_nor_the_templates():
    """Commands import what they run inside `run`: `releasekb --help` (and a typo) answers at once."""
    result = subprocess.run([sys.executable, "-c", HELP_IMPORTS], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "[]"


def test_contract_prints_the_site_contract(real_catalog, capsys):
    assert cli.main(["--data", str(REAL_RELEASES), "contract"]) == 0
    assert capsys.readouterr().out == contract_text(real_catalog)
