// The page's side of the header search (the theme's main.html loads it before Material's
// script). Material's search box is answered by our worker, releasekb-search.js; this script:
//
// - starts that worker only when the reader shows the intent to search: the pointer over the
//   search box or the header's search button (a touch gives it too), the box's focus (which the
//   `/` and `s` keys give it), text entered, a ?q= address. Material creates its search worker
//   as the page opens, and the worker loads Pagefind's code (about 120 KB) and the index's table
//   of contents: a reader who never goes near the search downloads none of it, and one who does
//   has it loading while the pointer reaches the box. Material gets a stand-in that keeps its
//   messages until then;
// - makes text entered without key presses search (a paste, an input method's commit, a
//   browser's autofill): Material reads the box on its key events only, so each such change is
//   handed to it as one;
// - shows the number of pages found (the worker sends the first ten and counts the rest: Material
//   would count the items it got), and "no matching documents" when the only item leads to the
//   other language's results;
// - shows a feature's level and release (Material's tags) as a line of text, not a navigation
//   landmark per result.
(function () {
  "use strict";
  const box = document.querySelector(".md-search__input");
  const meta = document.querySelector(".md-search-result__meta");
  const list = document.querySelector(".md-search-result__list");
  const config = document.getElementById("__config");
  const RealWorker = window.Worker;
  if (!box || !meta || !config || typeof RealWorker !== "function") return;
  const RESULT = 3; // Material's message types (releasekb-search.js)

  // Material's settings, as the page has them when they are read (the 404 page switches them to
  // the language of its address before Material's script starts).
  const settings = () => JSON.parse(config.textContent);

  // ------------------------------------------------------------------ the worker, on first use

  let used = false; // the reader has used the search box
  let standIn = null; // what Material got for its search worker

  class SearchWorker extends EventTarget {
    constructor(url, options) {
      super();
      this.url = url;
      this.options = options;
      this.waiting = []; // Material's messages until the worker starts
      this.worker = null;
      if (used) this.start();
    }

    postMessage(message) {
      if (this.worker) this.worker.postMessage(message);
      else this.waiting.push(message);
    }

    start() {
      if (this.worker) return;
      this.worker = new RealWorker(this.url, this.options);
      this.worker.addEventListener("message", (event) => {
        this.dispatchEvent(new MessageEvent("message", { data: event.data }));
        if (event.data && event.data.type === RESULT) answered(event.data.data);
      });
      this.worker.addEventListener("error", () => this.dispatchEvent(new Event("error")));
      for (const message of this.waiting.splice(0)) this.worker.postMessage(message);
    }

    terminate() {
      if (this.worker) this.worker.terminate();
    }
  }

  function isSearchWorker(url) {
    try {
      return new URL(url, document.baseURI).href === new URL(settings().search, document.baseURI).href;
    } catch (error) {
      return false;
    }
  }

  window.Worker = function Worker(url, options) {
    if (!standIn && isSearchWorker(url)) return (standIn = new SearchWorker(url, options));
    return new RealWorker(url, options);
  };
  window.Worker.prototype = RealWorker.prototype;

  function firstUse() {
    used = true;
    if (standIn) standIn.start();
  }
  box.addEventListener("focus", firstUse);
  box.addEventListener("input", firstUse);
  const toggle = document.getElementById("__search"); // the header's search button on a phone
  if (toggle) toggle.addEventListener("change", firstUse);
  // the intent, before the click: the pointer over the box's form (its icon included) or over a
  // label of the search toggle (the header's search button)
  for (const target of [box.form || box, ...document.querySelectorAll('label[for="__search"]')]) {
    target.addEventListener("pointerover", firstUse, { once: true, passive: true });
  }
  // Material opens its search box for ?q= (the features index takes its q before: main.html)
  if (new URLSearchParams(window.location.search).has("q")) firstUse();

  // ------------------------------------------------------------------ text without key presses

  function handToMaterial(event) {
    if (event.isComposing) return; // an input method's text in progress: its commit follows
    box.dispatchEvent(new KeyboardEvent("keyup", { bubbles: true }));
  }
  box.addEventListener("input", handToMaterial);
  box.addEventListener("compositionend", handToMaterial);

  // ------------------------------------------------------------------ the count

  let latest = null; // the worker's last answer: {query, matches, ...}

  function answered(result) {
    latest = result;
    showCount();
  }

  function showCount() {
    if (!latest || typeof latest.matches !== "number" || latest.query !== box.value || !latest.query.trim()) return;
    const translations = settings().translations || {};
    const count = latest.matches;
    const text =
      count === 0
        ? translations["search.result.none"]
        : count === 1
          ? translations["search.result.one"]
          : (translations["search.result.other"] || "").replace("#", count);
    if (text && meta.textContent !== text) meta.textContent = text;
  }
  new MutationObserver(showCount).observe(meta, { childList: true, characterData: true, subtree: true });

  // ------------------------------------------------------------------ level and release

  // Material renders an item's tags as <nav class="md-tags"><span class="md-tag">...: the worker
  // gives a feature's level badge and release as its one tag.
  function tagsAsText(root) {
    for (const tags of root.querySelectorAll("nav.md-tags")) {
      const line = document.createElement("p");
      line.className = "rkb-search-facts";
      for (const tag of tags.querySelectorAll(".md-tag")) line.append(...tag.childNodes);
      tags.replaceWith(line);
    }
  }
  if (list) new MutationObserver(() => tagsAsText(list)).observe(list, { childList: true, subtree: true });
})();
