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
