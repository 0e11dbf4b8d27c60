"""The machine-readable outputs written beside each language's pages, each behind one small
interface, one module each (as vermin's formats/ are), listed in OUTPUTS: the JSON API
(json_api.py), a badge per feature (badges.py), the intersphinx inventory (inventory.py) and the
Atom feed (feed.py). publish.py writes them all, and the URL contract lists their paths, by
looping over OUTPUTS; a new output is a module with the four functions of output.Output
(describe, wanted, files, paths), added to the list. (The sitemap is no output of ours: the
theme's sitemap.xml writes it, through MkDocs.)
"""

from __future__ import annotations

from releasekb.site.outputs import badges, feed, inventory, json_api
from releasekb.site.outputs.output import Output

# In the order they are written: the API first, as a build always did.
OUTPUTS: tuple[Output, ...] = (json_api, badges, inventory, feed)
