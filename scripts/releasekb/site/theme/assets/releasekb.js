// The language switch leads to the same page in the other language (the plugin sets its links);
// the query and the fragment go with it, since the languages share parameters and ids: an
// upgrade range, the features index's filters, a feature's anchor. The scripts below rewrite the
// address with history.replaceState, so the links follow every rewrite. The 404 page's switch
// leads to each language's home, and keeps its own links.
(function () {
  if (document.getElementById("rkb-not-found")) return;
  const links = Array.from(document.querySelectorAll(".md-select__link[hreflang]"), (link) => ({
    link,
    page: link.href.replace(/[?#].*$/, ""),
  }));
  if (!links.length) return;
  const update = () => {
    for (const { link, page } of links) link.href = page + window.location.search + window.location.hash;
  };
  for (const name of ["pushState", "replaceState"]) {
    const original = history[name];
    history[name] = function (...args) {
      const result = original.apply(this, args);
      update();
      return result;
    };
  }
  window.addEventListener("hashchange", update);
  window.addEventListener("popstate", update);
  update();
})();

// A data table wider than its column scrolls in its own box (releasekb.css): a box that
// scrolls is a stop of the keyboard (its arrow keys scroll it); one that fits is not.
(function () {
  const boxes = document.querySelectorAll(".rkb-scroll[tabindex]");
  if (!boxes.length || typeof ResizeObserver === "undefined") return;
  // The box and its table: either may change size (the window, fonts arriving).
  const observer = new ResizeObserver((entries) => {
    for (const { target } of entries) {
      const box = target.closest(".rkb-scroll");
      if (box) box.tabIndex = box.scrollWidth > box.clientWidth ? 0 : -1;
    }
  });
  for (const box of boxes) {
    observer.observe(box);
    const table = box.querySelector("table");
    if (table) observer.observe(table);
  }
})();

// Feature pages: without a configured site_url the permanent link is printed as a path; in
// the browser we know the host (and any sub-path the site is served under), so show the full
// address there, ready to paste into another site's docs.
(function () {
  for (const box of document.querySelectorAll(".rkb-permalink[data-path^='/']")) {
    const address = window.location.origin + window.location.pathname;
    // The feature's badge is a file of the same site: from the same root as the page.
    const root = address.endsWith(box.dataset.path) ? address.slice(0, -box.dataset.path.length) : "";
    const badge = box.dataset.badge && box.dataset.badge.startsWith("/") && root ? box.dataset.badge : "";
    for (const code of box.querySelectorAll("code")) {
      let text = code.textContent.split(box.dataset.path).join(address);
      if (badge) text = text.split("(" + badge + ")").join("(" + root + badge + ")");
      code.textContent = text;
    }
  }
})();

// Features index: progressive enhancement over a table that is complete without JS.
// The filters and the order live in the query string
// (?q=cache&stability=beta&as_of=1.5&release=1.7&area=distributed&sort=-first), so a view is a link
// someone can share and survives a reload. `stability` with `as_of` keeps the features whose
// level as of that release (the latest stated at or before it) is that level; `release` keeps
// those an entry of that release mentions. Without `as_of`, levels are read as of `release` when
// it is given (what such addresses always meant: the level in that release), else as of the
// latest release; the address names `as_of` only when it differs from that. `version=` is the
// former name of `release=` and still works.
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
  // Release order, from the "as of" choices (newest first): 0 for the oldest release.
  const asOfOptions = Array.from(form.elements.as_of.options, (option) => option.value);
  const latest = asOfOptions[0];
  const releaseOrder = new Map(asOfOptions.map((version, i) => [version, asOfOptions.length - 1 - i]));
  const rows = Array.from(body.rows, (row, index) => {
    // data-stability is "1.5=stable 1.7=beta": what each release that mentions the feature said.
    const said = row.dataset.stability.split(" ").map((pair) => pair.split("="));
    // data-levels is "1.4=experimental 1.5=stable": the level in effect from each release on
    // where it changes ("removed" from a removal on), as [release order, level], oldest first.
    const history = row.dataset.levels.split(" ").filter(Boolean).map((pair) => {
      const [version, level] = pair.split("=");
      return [releaseOrder.get(version), level];
    });
    return {
      row,
      index,
      id: row.dataset.id,
      text: null, // from the texts file, once loaded
      area: row.dataset.area,
      releases: new Set(said.map(([version]) => version)),
      history,
      keys: { level: Number(row.dataset.level), first: Number(row.dataset.first), latest: Number(row.dataset.latest) },
    };
  });
  // The level a row's feature has as of the release of order `order`: null before it existed.
  function levelAsOf(r, order) {
    let level = null;
    for (const [from, state] of r.history) {
      if (from > order) break;
      level = state;
    }
    return level;
  }
  // The level column shows each feature's level as of the chosen release (a badge per level it
  // has held, data-from the release it holds from; none before the feature existed), and its
  // heading says which release that is; sorting by it sorts by those levels (data-order). The
  // page comes with the latest release's shown.
  const levelHeading = document.getElementById("rkb-level-heading");
  const levelColumn = Array.from(table.tHead.rows[0].cells).findIndex((th) => th.dataset.sort === "level");
  let levelsShownAsOf = latest;
  function showLevelsAsOf(version) {
    if (version === levelsShownAsOf || !releaseOrder.has(version)) return;
    levelsShownAsOf = version;
    const asOf = releaseOrder.get(version);
    if (levelHeading) levelHeading.textContent = levelHeading.dataset.template.replace("{version}", version);
    for (const r of rows) {
      r.steps = r.steps ?? Array.from(r.row.cells[levelColumn].querySelectorAll(":scope > span[data-from]"));
      const held = r.steps.filter((step) => releaseOrder.get(step.dataset.from) <= asOf).pop();
      for (const step of r.steps) step.hidden = step !== held;
      r.keys.level = held ? Number(held.dataset.order) : Infinity;
    }
    if (sort.column === "level") order(); // filters again, with the levels now shown
  }
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
  // Levels as of: the address's as_of, else the release it names, else the latest.
  const impliedAsOf = (release) => (releaseOrder.has(release) ? release : latest);
  wanted.as_of = releaseOrder.has(params.get("as_of")) ? params.get("as_of") : impliedAsOf(wanted.release);
  form.elements.q.value = wanted.q || "";
  for (const select of form.querySelectorAll("select")) {
    const value = wanted[select.name];
    if (value && Array.from(select.options).some((o) => o.value === value)) select.value = value;
  }
  const sortParam = params.get("sort") || "";
  let sort = { column: sortParam.replace(/^-/, ""), descending: sortParam.startsWith("-") };
  if (!headers.some((th) => th.dataset.sort === sort.column)) sort = { column: "", descending: false };

  function matches(r, terms, stability, asOf, release, area) {
    if (area && r.area !== area) return false;
    if (release && !r.releases.has(release)) return false;
    if (stability && levelAsOf(r, asOf) !== stability) return false;
    return terms.every((term) => r.text.includes(term));
  }

  function filter() {
    showLevelsAsOf(form.elements.as_of.value);
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
    const asOf = releaseOrder.get(form.elements.as_of.value), area = form.elements.area.value;
    const limit = showAll ? Infinity : SHOWN_AT_ONCE;
    let matched = 0, shown = 0;
    for (const r of ordered) {
      const match = matches(r, terms, stability, asOf, release, area);
      if (match) matched += 1;
      const visible = match && matched <= limit;
      if (r.row.hidden === visible) r.row.hidden = !visible;
      if (visible) shown += 1;
    }
    output.textContent = (shown < matched ? output.dataset.limited : output.dataset.template)
      .replace("{shown}", shown).replace("{matched}", matched).replace("{total}", rows.length);
    form.elements.more.hidden = shown === matched;
    explainEmpty(matched === 0, { q: terms, stability, as_of: asOf, release, area });
  }

  // A view the filters leave empty says so: which filters are set, and a button to
  // remove each one whose removal alone brings rows back (else one that clears them all).
  const empty = document.getElementById("rkb-features-empty");
  const cleared = { q: [], stability: "", release: "", area: "" };
  function explainEmpty(nothing, wanted) {
    if (!empty) return;
    empty.hidden = !nothing;
    if (!nothing) {
      empty.replaceChildren();
      delete empty.dataset.shown;
      return;
    }
    const named = (name, value) => {
      const label = form.elements[name].closest("label");
      return empty.dataset.label.replace("{label}", label ? label.firstChild.textContent.trim() : name) + value;
    };
    const chosen = (name) => form.elements[name].selectedOptions[0].textContent;
    const set = [];
    if (wanted.q.length) set.push(["q", named("q", form.elements.q.value.trim())]);
    if (wanted.stability) {
      const level = empty.dataset.asOf.replace("{level}", chosen("stability")).replace("{version}", form.elements.as_of.value);
      set.push(["stability", named("stability", level)]);
    }
    if (wanted.release) set.push(["release", named("release", chosen("release"))]);
    if (wanted.area) set.push(["area", named("area", chosen("area"))]);
    const widening = set.filter(([name]) => {
      const without = { ...wanted, [name]: cleared[name] };
      return rows.some((r) => matches(r, without.q, without.stability, without.as_of, without.release, without.area));
    });
    // The same note again is left as it is: the words box's `change` as it loses focus to one
    // of these buttons would otherwise replace the button under the pointer, and lose the click.
    const shown = JSON.stringify([set, widening]);
    if (empty.dataset.shown === shown) return;
    empty.dataset.shown = shown;
    const paragraph = document.createElement("p");
    paragraph.textContent = empty.dataset.none.replace("{filters}", set.map(([, text]) => text).join(empty.dataset.separator));
    empty.replaceChildren(paragraph);
    const buttons = widening.length ? widening : [[null, null]];
    for (const [name, text] of buttons) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "md-button";
      button.textContent = name ? empty.dataset.remove.replace("{filter}", text) : empty.dataset.clear;
      button.addEventListener("click", () => {
        for (const field of name ? [name] : Object.keys(cleared)) form.elements[field].value = "";
        filter();
        remember();
        (name ? form.elements[name] : form.elements.q).focus();
      });
      empty.append(button);
    }
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
    const implied = impliedAsOf(form.elements.release.value);
    for (const name of ["q", "stability", "as_of", "release", "area"]) {
      const value = form.elements[name].value.trim();
      if (value && !(name === "as_of" && value === implied)) query.set(name, value);
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
  form.inert = false; // in place, inert, from the first paint: showing it now moves nothing
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
// A pair that is no upgrade (a version that is no release, "from" after "to", the same version
// twice) is answered with a message and no section, never with another range. The releases the
// knowledge base does not describe come as one list on the form and, per section, those just
// before its release: the range's gaps are those of the sections shown.
(function () {
  const form = document.getElementById("rkb-upgrade");
  // No form, or (from a page built before there were two releases) no version to upgrade from.
  if (!form || form.elements.from.options.length < 2) return;
  const output = form.elements.summary;
  const sections = Array.from(document.querySelectorAll(".rkb-upgrade-release"));
  const releases = Array.from(form.elements.from.options, (option) => option.value);
  const notDescribed = (form.dataset.notDescribed || "").split(" ").filter(Boolean);
  // Position in release order: the oldest release has no section of its own.
  const position = (version) => releases.indexOf(version);
  const sectionPosition = (section) => position(section.dataset.version);
  const listText = (items) =>
    items.length < 2
      ? items.join("")
      : output.dataset.listPair
          .replace("{first}", items.slice(0, -1).join(output.dataset.listSeparator))
          .replace("{last}", items[items.length - 1]);
  const params = new URLSearchParams(window.location.search);
  const asked = { from: params.get("from"), to: params.get("to") };
  // Each end the address names is kept as it is; an end it leaves out is the widest.
  form.elements.from.value = asked.from !== null ? asked.from : releases[0];
  form.elements.to.value = asked.to !== null ? asked.to : releases[releases.length - 1];

  // What is wrong with a pair, in the reader's language; "" for an upgrade.
  function problem(from, to) {
    const notes = [];
    for (const version of [from, to]) {
      if (releases.includes(version) || notes.some((note) => note.version === version)) continue;
      const key = notDescribed.includes(version) ? "notDescribedVersion" : "unknown";
      notes.push({ version, text: output.dataset[key].replace("{version}", version) });
    }
    if (notes.length) return notes.map((note) => note.text).join(" ");
    if (position(from) > position(to)) return output.dataset.after.replace("{from}", from).replace("{to}", to);
    if (from === to) return output.dataset.same.replace("{version}", from);
    return "";
  }

  function show(section, visible) {
    section.hidden = !visible;
    // The table of contents lists only the sections shown. Its markup is the theme's, which a
    // site may override (a `toc-item.html` without <li>): the entry is the link's list item
    // when there is one, else the link itself, and a table of contents that is not there at
    // all leaves the sections shown as they are.
    const heading = section.querySelector("h2[id]");
    const tocLink = heading && document.querySelector(`.md-nav--secondary a[href="#${CSS.escape(heading.id)}"]`);
    if (tocLink) (tocLink.closest(".md-nav--secondary li") || tocLink).hidden = !visible;
  }

  function apply(from, to, updateAddress) {
    const wrong = problem(from, to);
    const first = position(from) + 1, last = position(to);
    const gaps = [];
    let shown = 0;
    for (const section of sections) {
      const index = sectionPosition(section);
      const visible = !wrong && index >= first && index <= last;
      show(section, visible);
      if (!visible) continue;
      shown += 1;
      gaps.push(...(section.dataset.notDescribed || "").split(" ").filter(Boolean));
      // A change announced inside the range is listed in its own section: only those announced
      // at or before "from" are listed again where they take effect.
      const effects = Array.from(section.querySelectorAll("[data-announced]"));
      for (const item of effects) item.hidden = position(item.dataset.announced) >= first;
      const block = section.querySelector(".rkb-taking-effect");
      if (block) block.hidden = effects.every((item) => item.hidden);
      const nothing = section.querySelector(".rkb-upgrade-nothing");
      if (nothing && effects.length) nothing.hidden = !effects.every((item) => item.hidden);
    }
    let summary = wrong;
    if (!wrong) {
      const one = shown === 1;
      const template = gaps.length
        ? (one ? output.dataset.gapsOne : output.dataset.gaps).replace("{missing}", listText(gaps))
        : one ? output.dataset.templateOne : output.dataset.template;
      summary = template.replace("{from}", from).replace("{to}", to).replace("{count}", shown);
    }
    output.textContent = summary;
    output.classList.toggle("rkb-unknown", Boolean(wrong));
    output.classList.toggle("rkb-incomplete", !wrong && gaps.length > 0);
    if (updateAddress) {
      const query = new URLSearchParams({ from: from, to: to });
      history.replaceState(null, "", "?" + query.toString().replace(/%2F/g, "/") + window.location.hash);
    }
  }

  form.hidden = false;
  form.addEventListener("change", () => {
    // An end the address named that is no release shows blank: choosing the other end replaces
    // it with the widest choice.
    if (!form.elements.from.value) form.elements.from.value = releases[0];
    if (!form.elements.to.value) form.elements.to.value = releases[releases.length - 1];
    apply(form.elements.from.value, form.elements.to.value, true);
  });
  form.addEventListener("submit", (event) => event.preventDefault());
  apply(
    asked.from !== null ? asked.from : form.elements.from.value,
    asked.to !== null ? asked.to : form.elements.to.value,
    asked.from !== null && asked.to !== null && !problem(asked.from, asked.to),
  );
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
  const heading = current.querySelector("h1");
  if (heading) document.title = heading.textContent;
  speak(JSON.parse(current.dataset.chrome || "{}"));
  suggest(current, path.slice(current.dataset.prefix.length));

  // A mistyped feature address (/features/acme-iio/): the nearest feature's address, from the
  // ids of the features index's words filter (one small file per language, fetched only here).
  function suggest(section, rest) {
    const note = section.querySelector(".rkb-did-you-mean");
    const prefix = section.dataset.featuresPrefix;
    if (!note || !prefix || !section.dataset.features || !rest.startsWith(prefix)) return;
    let typed = rest.slice(prefix.length).split("/")[0] || "";
    try {
      typed = decodeURIComponent(typed).toLowerCase();
    } catch {
      return; // not an address anyone typed
    }
    if (!typed) return;
    fetch(section.dataset.features)
      .then((response) => (response.ok ? response.json() : {}))
      .then((texts) => {
        const id = nearest(typed, Object.keys(texts));
        if (!id) return;
        const address = root + section.dataset.prefix + prefix + encodeURIComponent(id) + "/";
        const link = document.createElement("a");
        link.href = address;
        link.textContent = address;
        const [before, after = ""] = note.dataset.template.split("{address}");
        note.replaceChildren(before, link, after);
        note.hidden = false;
      })
      .catch(() => {});
  }

  // The id closest to what was typed: one that contains it (the shortest), else the one fewest
  // edits away, if that is less than half of it; none when nothing is close.
  function nearest(typed, ids) {
    const containing = ids.filter((id) => typed.length >= 3 && id.includes(typed)).sort((a, b) => a.length - b.length);
    if (containing.length) return containing[0];
    let best = null, bestDistance = Math.ceil(typed.length / 2);
    for (const id of ids) {
      const distance = edits(typed, id, bestDistance);
      if (distance < bestDistance) {
        best = id;
        bestDistance = distance;
      }
    }
    return best;
  }

  // Levenshtein distance, given up at `limit` (the lengths alone may tell).
  function edits(a, b, limit) {
    if (Math.abs(a.length - b.length) > limit) return limit + 1;
    let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      const row = [i];
      for (let j = 1; j <= b.length; j++) {
        row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      }
      previous = row;
    }
    return previous[b.length];
  }

  // The page around the message in the language of the address too: the site's name, the
  // navigation (its tabs, and the drawer's list, which Material makes of the same entries)
  // leading to that language's pages, and Material's labels.
  function speak({ site_name: siteName, navigation = [], labels = {}, made_with: madeWith }) {
    const text = (element, value) => {
      // the element's own text, beside any icon it holds
      const node = Array.from(element.childNodes).findLast((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim());
      if (node) node.textContent = " " + value + " ";
      else element.append(value);
    };
    if (siteName) {
      for (const element of document.querySelectorAll(".md-header__topic:first-child .md-ellipsis, .md-nav--primary > .md-nav__title")) {
        text(element, siteName);
      }
      for (const logo of document.querySelectorAll(".md-logo")) {
        logo.title = siteName;
        logo.setAttribute("aria-label", siteName);
        if (navigation.length) logo.href = navigation[0][1];
      }
    }
    const lists = [
      Array.from(document.querySelectorAll(".md-tabs__link")),
      Array.from(document.querySelectorAll(".md-nav--primary > .md-nav__list > .md-nav__item > .md-nav__link")),
    ];
    for (const links of lists) {
      if (links.length !== navigation.length) continue;
      links.forEach((link, index) => {
        const [title, address] = navigation[index];
        text(link.querySelector(".md-ellipsis") || link, title);
        link.href = address;
      });
    }
    const label = (selector, key, attributes = ["aria-label"]) => {
      if (!labels[key]) return;
      for (const element of document.querySelectorAll(selector)) {
        for (const attribute of attributes) element.setAttribute(attribute, labels[key]);
      }
    };
    label(".md-header__inner", "header");
    label(".md-tabs", "tabs");
    label(".md-nav--primary", "nav");
    label(".md-nav--secondary", "toc");
    label(".md-search__options", "search");
    label(".md-search[role='dialog']", "search");
    const made = document.querySelector(".rkb-made-with");
    const tool = made && made.querySelector("a");
    if (madeWith && tool) {
      const [before, after = ""] = madeWith.split("{tool}");
      made.replaceChildren(before, tool, after);
    }
    label(".md-header .md-select > .md-header__button", "select.language");
    label(".md-search__options [type='reset']", "search.reset", ["aria-label", "title"]);
    if (labels.top) for (const top of document.querySelectorAll(".md-top")) text(top, labels.top);
  }
})();
