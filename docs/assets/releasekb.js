// Feature pages: without a configured site_url the permanent link is printed as a path; in
// the browser we know the host (and any sub-path the site is served under), so show the full
// address there, ready to paste into another site's docs.
(function () {
  for (const box of document.querySelectorAll(".rkb-permalink[data-path^='/']")) {
    const address = window.location.origin + window.location.pathname;
    for (const code of box.querySelectorAll("code")) {
      code.textContent = code.textContent.split(box.dataset.path).join(address);
    }
  }
})();

// Features page filters: progressive enhancement over a table that is complete without JS.
// The filters live in the query string (?stability=beta&version=1.7&area=distributed), so a
// filtered view is a link someone can share. Material's instant loading is off, so the
// script runs on every page load.
(function () {
  const form = document.getElementById("rkb-filter");
  const table = document.getElementById("rkb-features");
  if (!form || !table) return;
  const rows = Array.from(table.tBodies[0].rows);
  const params = new URLSearchParams(window.location.search);
  for (const select of form.querySelectorAll("select")) {
    const wanted = params.get(select.name);
    if (wanted && Array.from(select.options).some((o) => o.value === wanted)) select.value = wanted;
  }

  function matches(row, stability, version, area) {
    if (area && row.dataset.area !== area) return false;
    if (version && !row.dataset.versions.split(" ").includes(version)) return false;
    if (!stability) return true;
    // data-stability is "1.5=stable 1.7=beta": the level each release published.
    return row.dataset.stability.trim().split(" ").some((pair) => {
      const [v, level] = pair.split("=");
      return level === stability && (!version || v === version);
    });
  }

  function apply() {
    const stability = form.stability.value, version = form.version.value, area = form.area.value;
    let shown = 0;
    for (const row of rows) {
      const visible = matches(row, stability, version, area);
      row.hidden = !visible;
      if (visible) shown += 1;
    }
    const output = form.querySelector("output");
    output.textContent = output.dataset.template
      .replace("{shown}", shown).replace("{total}", rows.length);
    const query = new URLSearchParams();
    for (const [key, value] of [["stability", stability], ["version", version], ["area", area]]) {
      if (value) query.set(key, value);
    }
    const search = query.toString();
    history.replaceState(null, "", search ? "?" + search : window.location.pathname);
  }

  form.hidden = false;
  form.addEventListener("change", apply);
  apply();
})();

// Upgrade view: one page lists every release's upgrade notes, oldest first, and is a correct
// answer without JavaScript. Here the chosen range (?from=1.4&to=1.7) shows only the releases
// after "from" up to and including "to"; choosing updates the address, so it can be shared.
(function () {
  const form = document.getElementById("rkb-upgrade");
  if (!form) return;
  const sections = Array.from(document.querySelectorAll(".rkb-upgrade-release"));
  const versions = sections.map((section) => section.dataset.version);
  const oldest = form.elements.from.options[0].value;
  // Position in release order: the oldest release has no section of its own.
  const position = (version) => (version === oldest ? -1 : versions.indexOf(version));
  const params = new URLSearchParams(window.location.search);
  const known = (select, value) => Array.from(select.options).some((o) => o.value === value);
  const chosen = known(form.elements.from, params.get("from")) && known(form.elements.to, params.get("to"));
  form.elements.from.value = chosen ? params.get("from") : oldest;
  form.elements.to.value = chosen ? params.get("to") : versions[versions.length - 1];

  function apply(updateAddress) {
    const from = form.elements.from.value, to = form.elements.to.value;
    const first = position(from) + 1, last = position(to);
    const output = form.elements.summary;
    let shown = 0;
    sections.forEach((section, index) => {
      const visible = index >= first && index <= last;
      section.hidden = !visible;
      if (visible) shown += 1;
      // The table of contents lists only the sections shown.
      const tocLink = document.querySelector(`.md-nav--secondary a[href="#${section.querySelector("h2").id}"]`);
      if (tocLink) tocLink.closest("li").hidden = !visible;
    });
    output.textContent = shown
      ? output.dataset.template.replace("{from}", from).replace("{to}", to).replace("{count}", shown)
      : output.dataset.empty;
    if (updateAddress) {
      const query = new URLSearchParams({ from: from, to: to });
      history.replaceState(null, "", "?" + query.toString().replace(/%2F/g, "/"));
    }
  }

  form.hidden = false;
  form.addEventListener("change", () => apply(true));
  form.addEventListener("submit", (event) => event.preventDefault());
  apply(chosen);
})();
