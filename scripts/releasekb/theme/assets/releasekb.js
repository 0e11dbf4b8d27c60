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

// Features index: progressive enhancement over a table that is complete without JS.
// The filters and the order live in the query string
// (?q=fft&stability=beta&release=1.7&area=distributed&sort=-first), so a view is a link someone
// can share and survives a reload; `version=` is the former name of `release=` and still works.
// Built for thousands of rows: each row's sort keys are read once from its data attributes
// (written from the catalog), filtering toggles rows in one pass, and sorting re-appends the
// rows through one DocumentFragment. The text the words filter searches (titles, summaries,
// API names) would be most of the page's weight, so it is a file of its own (the table's
// data-texts), fetched once, the first time the words filter has words. Laying out thousands of table rows is
// what takes time in the browser, so at most SHOWN_AT_ONCE matching rows are shown until the
// reader asks for all. Material's instant loading is off, so the script runs on every page load.
(function () {
  const SHOWN_AT_ONCE = 300;
  const form = document.getElementById("rkb-filter");
  const table = document.getElementById("rkb-features");
  if (!form || !table) return;
  const body = table.tBodies[0];
  const rows = Array.from(body.rows, (row, index) => {
    // data-stability is "1.5=stable 1.7=beta": the level each release published.
    const levels = row.dataset.stability.split(" ").map((pair) => pair.split("="));
    return {
      row,
      index,
      id: row.dataset.id,
      text: null, // from the texts file, once loaded
      area: row.dataset.area,
      releases: new Set(levels.map(([version]) => version)),
      levels,
      keys: { level: Number(row.dataset.level), first: Number(row.dataset.first), latest: Number(row.dataset.latest) },
    };
  });
  // "idle", "loading", "loaded" or "failed": the words filter's texts file.
  let texts = "idle";
  function loadTexts() {
    texts = "loading";
    fetch(table.dataset.texts)
      .then((response) => {
        if (!response.ok) throw new Error(`${response.status} ${response.url}`);
        return response.json();
      })
      .then((byId) => {
        for (const r of rows) r.text = byId[r.id] ?? "";
        texts = "loaded";
      })
      .catch(() => (texts = "failed"))
      .then(filter); // with the words in the box now, not those typed when the load began
  }
  let ordered = rows, showAll = false;
  // Columns sorted by their text (feature, area) get a numeric key once, when first sorted,
  // in the order of the page's language (pinyin for Chinese titles).
  const collator = new Intl.Collator(table.lang || undefined, { numeric: true });
  const headers = Array.from(table.tHead.rows[0].cells).filter((th) => th.dataset.sort);
  function keyOf(column) {
    if (rows.length && !(column in rows[0].keys)) {
      const cell = headers.findIndex((th) => th.dataset.sort === column);
      const byText = rows.map((r) => [r.row.cells[cell].textContent.trim(), r]);
      byText.sort((a, b) => collator.compare(a[0], b[0]));
      byText.forEach(([, r], rank) => (r.keys[column] = rank));
    }
    return column;
  }

  const params = new URLSearchParams(window.location.search);
  // docs/overrides/main.html took q out of the address before Material could read it.
  const wanted = { q: window.rkbFeaturesQuery ?? params.get("q"), stability: params.get("stability"),
    release: params.get("release") ?? params.get("version"), area: params.get("area") };
  form.elements.q.value = wanted.q || "";
  for (const select of form.querySelectorAll("select")) {
    const value = wanted[select.name];
    if (value && Array.from(select.options).some((o) => o.value === value)) select.value = value;
  }
  const sortParam = params.get("sort") || "";
  let sort = { column: sortParam.replace(/^-/, ""), descending: sortParam.startsWith("-") };
  if (!headers.some((th) => th.dataset.sort === sort.column)) sort = { column: "", descending: false };

  function matches(r, terms, stability, release, area) {
    if (area && r.area !== area) return false;
    if (release && !r.releases.has(release)) return false;
    if (stability && !r.levels.some(([v, level]) => level === stability && (!release || v === release))) return false;
    return terms.every((term) => r.text.includes(term));
  }

  function filter() {
    const terms = form.elements.q.value.toLowerCase().split(/\s+/).filter(Boolean);
    const output = form.elements.count;
    if (terms.length && texts !== "loaded") {
      // Until the texts arrive the table stays as it is and says why; without them no count
      // would be true, so after a failure it says that instead of "0 match".
      if (texts === "idle") loadTexts();
      output.textContent = texts === "failed" ? output.dataset.failed : output.dataset.loading;
      return;
    }
    const stability = form.elements.stability.value, release = form.elements.release.value;
    const area = form.elements.area.value;
    const limit = showAll ? Infinity : SHOWN_AT_ONCE;
    let matched = 0, shown = 0;
    for (const r of ordered) {
      const match = matches(r, terms, stability, release, area);
      if (match) matched += 1;
      const visible = match && matched <= limit;
      if (r.row.hidden === visible) r.row.hidden = !visible;
      if (visible) shown += 1;
    }
    output.textContent = (shown < matched ? output.dataset.limited : output.dataset.template)
      .replace("{shown}", shown).replace("{matched}", matched).replace("{total}", rows.length);
    form.elements.more.hidden = shown === matched;
  }

  function order() {
    const sorted = rows.slice();
    if (sort.column) {
      const key = keyOf(sort.column), sign = sort.descending ? -1 : 1;
      sorted.sort((a, b) => sign * (a.keys[key] - b.keys[key]) || a.index - b.index);
    }
    const fragment = document.createDocumentFragment();
    for (const r of sorted) fragment.appendChild(r.row);
    body.appendChild(fragment);
    ordered = sorted;
    filter();  // the rows shown first follow the order
    for (const th of headers) {
      if (th.dataset.sort === sort.column) th.setAttribute("aria-sort", sort.descending ? "descending" : "ascending");
      else th.removeAttribute("aria-sort");
    }
  }

  function remember() {
    const query = new URLSearchParams();
    for (const name of ["q", "stability", "release", "area"]) {
      const value = form.elements[name].value.trim();
      if (value) query.set(name, value);
    }
    if (sort.column) query.set("sort", (sort.descending ? "-" : "") + sort.column);
    const search = query.toString();
    history.replaceState(null, "", search ? "?" + search : window.location.pathname);
  }

  // Sortable headings: real buttons (focusable, Enter and Space work), made here because
  // without the script they would do nothing.
  for (const th of headers) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "rkb-sort";
    button.append(...th.childNodes);
    th.appendChild(button);
    button.addEventListener("click", () => {
      const column = th.dataset.sort;
      sort = { column, descending: sort.column === column && !sort.descending };
      order();
      remember();
    });
  }

  form.elements.more.addEventListener("click", () => {
    showAll = true;
    filter();
  });
  form.hidden = false;
  form.addEventListener("input", () => { filter(); remember(); });
  form.addEventListener("change", () => { filter(); remember(); });
  form.addEventListener("submit", (event) => event.preventDefault());
  if (sort.column) order();
  else filter();
  // Put q back (see above); old links now read ?release=.
  if (wanted.q || (wanted.release && params.has("version"))) remember();
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

// 404 page: static hosts answer every missing address with the root 404.html, which says it in
// every language (docs/overrides/404.html). Keep only the language of the address, and send a
// former per-pair upgrade address (/changelog/1.4-to-1.8/) to the one upgrade view.
(function () {
  const page = document.getElementById("rkb-not-found");
  if (!page) return;
  const root = page.dataset.root, address = window.location.pathname;
  const path = address.startsWith(root) ? address.slice(root.length) : address.replace(/^\//, "");
  const sections = Array.from(page.querySelectorAll(".rkb-not-found"));
  // The longest language prefix the address starts with ("zh/" wins over the default "").
  const current = sections
    .filter((section) => path.startsWith(section.dataset.prefix))
    .sort((a, b) => b.dataset.prefix.length - a.dataset.prefix.length)[0];
  if (!current) return;
  const pair = path.slice(current.dataset.prefix.length).match(/^changelog\/([^/]+)-to-([^/]+?)\/?(?:index\.html)?$/);
  if (pair) {
    const query = new URLSearchParams({ from: decodeURIComponent(pair[1]), to: decodeURIComponent(pair[2]) });
    window.location.replace(root + current.dataset.prefix + page.dataset.upgrade + "?" + query);
    return;
  }
  for (const section of sections) section.hidden = section !== current;
  document.documentElement.lang = current.lang;
  document.title = current.querySelector("h1").textContent;
})();
