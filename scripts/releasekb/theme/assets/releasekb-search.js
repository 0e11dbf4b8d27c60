// The search behind Material's search box, answered from this language's Pagefind index.
//
// Material runs its search in a web worker and lets a site bring its own (its __config.search,
// set in docs/overrides/main.html): the page sends SETUP with the file search/search_index.json
// (for us: Material's highlighter settings and ours under `releasekb`, no pages, see
// releasekb/search.py), waits for READY, then sends each QUERY and renders each RESULT with its
// own markup. This worker loads Pagefind's code and the index's table of contents when the page
// opens (SETUP), and each query then downloads only the index fragments it needs.
//
// Queries can name filters: "rpc level:beta", "级别:测试版 版本:1.5"; the names a reader may use
// and the filter values come from the index (see search.py's FILTERS).
"use strict";

const SETUP = 0;
const READY = 1;
const QUERY = 2;
const RESULT = 3;

let settings = null; // search.worker_settings: language, bundle address, filter names, strings
let pagefind = null; // a promise of the Pagefind module, made on the first query
let hanWords = null; // a promise of the index's Han words, made on the first Chinese query
let latest = 0; // the number of the newest query: answers to older ones are not shown
// Queries run one at a time, and only the newest waiting one: Material sends one per key press,
// and "d", "di", "dis" would each search the whole index for nothing while "distributed" waits.
let pending = null; // the newest query not yet started
let running = null; // the promise of the loop answering queries, while it runs
const counts = new BroadcastChannel("releasekb-search-matches"); // to releasekb.js

self.addEventListener("message", (event) => {
  const message = event.data;
  if (message.type === SETUP) {
    settings = message.data.config.releasekb;
    self.postMessage({ type: READY });
    // Material sends SETUP when the page opens: Pagefind's code and the index's table of
    // contents (about 140 KB at 80 releases, the same for every page, so cached after the first)
    // load now, off the page's thread, and the first query waits only for its own pieces.
    loadPagefind();
    loadHanWords(); // "[]" where the pages have no Chinese
  } else if (message.type === QUERY) {
    ++latest;
    pending = message.data;
    if (!running) running = answerPending();
  }
});

async function answerPending() {
  while (pending !== null) {
    const text = pending;
    const query = latest;
    pending = null;
    let result;
    try {
      result = await answer(text, () => query !== latest);
    } catch (error) {
      console.error("search failed:", error);
      result = { items: [] };
    }
    if (query === latest && result) {
      self.postMessage({ type: RESULT, data: result });
      // Material counts the items it gets; releasekb.js corrects its count to every match.
      // (A channel reaches every page of the site open in the browser: the worker's address
      // tells which language's search answered.)
      const matches = result.matches ?? result.items.length;
      counts.postMessage({ worker: self.location.href, query: text, matches });
    }
  }
  running = null;
}

// Pagefind reads the language from the page's <html lang>; a worker has no page, so Pagefind
// loads the bundle's one language without splitting queries into words with the browser's
// segmenter: splitChinese does that, with the index's own words. URLs in results start at the
// language's root (baseUrl), as Material's locations do.
function loadPagefind() {
  if (!pagefind) {
    const bundle = new URL(settings.bundle, self.location.href);
    pagefind = import(new URL("pagefind.js", bundle).href).then(async (module) => {
      await module.options({ basePath: bundle.pathname, baseUrl: "/", excerptLength: 24 });
      await module.init();
      return module;
    });
  }
  return pagefind;
}

const HAN_RUNS = /[\u3400-\u9fff\uf900-\ufaff]+/g; // Han as in releasekb/cjk.py

function loadHanWords() {
  if (!hanWords) {
    const url = new URL(settings.bundle + settings.han_words, self.location.href);
    hanWords = fetch(url, { cache: "no-cache" })
      .then((response) => (response.ok ? response.json() : []))
      .then((list) => ({ set: new Set(list), longest: Math.max(1, ...list.map((word) => word.length)) }))
      .catch(() => ({ set: new Set(), longest: 1 }));
  }
  return hanWords;
}

// "分布式自动求导" -> "分布 式 自动 求导": each run of Han characters split longest word first
// with the words the index has (search.han_words), single characters where none fits.
async function splitChinese(words) {
  if (!words.match(HAN_RUNS)) return words;
  const { set, longest } = await loadHanWords();
  return words.replace(HAN_RUNS, (run) => {
    const parts = [];
    for (let start = 0; start < run.length; ) {
      let length = Math.min(longest, run.length - start);
      while (length > 1 && !set.has(run.substr(start, length))) length--;
      parts.push(run.substr(start, length));
      start += length;
    }
    return " " + parts.join(" ") + " ";
  }).trim();
}

// "rpc level:beta" -> words "rpc", filters {level: ["beta"]}. A name:value token whose name is
// not a filter stays a word (pkg.mod:Class is text).
function parse(text) {
  const words = [];
  const filters = {};
  for (const token of text.trim().split(/\s+/).filter(Boolean)) {
    const match = /^([^:：]+)[:：](.+)$/.exec(token);
    const name = match && filterName(match[1]);
    if (name) (filters[name] = filters[name] || []).push(match[2]);
    else words.push(token);
  }
  return { words: words.join(" "), filters };
}

function filterName(typed) {
  const lower = typed.toLowerCase();
  return Object.keys(settings.filters).find((name) => settings.filters[name].includes(lower));
}

// The reader's filter values -> Pagefind's: each typed value matches the values the index has
// that equal it, or else that contain it ("area:distrib"), ignoring case.
async function resolveFilters(module, typed) {
  const names = Object.keys(typed);
  if (!names.length) return { filters: {} };
  const available = await module.filters();
  const filters = {};
  for (const name of names) {
    const values = Object.keys(available[name] || {});
    const chosen = [];
    for (const value of typed[name]) {
      const lower = value.toLowerCase();
      const exact = values.filter((v) => v.toLowerCase() === lower);
      const found = exact.length ? exact : values.filter((v) => v.toLowerCase().includes(lower));
      if (!found.length) return { unknown: { name, value, choices: keysOf(name, values) } };
      chosen.push(...found);
    }
    filters[name] = { any: chosen };
  }
  return { filters };
}

// The answer to one query, or null when `superseded()` says a newer query came meanwhile: a
// query is sent at every key press, and the pages of "d", "di", "dis"... need not be loaded.
async function answer(text, superseded) {
  const { words, filters: typed } = parse(text);
  if (!words && !Object.keys(typed).length) return { items: [] };
  const module = await loadPagefind();
  const resolved = await resolveFilters(module, typed);
  if (resolved.unknown) return { items: [[unknownFilter(text, resolved.unknown)]] };
  // Pagefind answers a search of filters alone by loading its whole index: the features
  // table lists those features instead, with the same filters set.
  if (!words) return { items: [[featuresWith(resolved.filters)]] };
  const search = await module.search(await splitChinese(words), { filters: resolved.filters });
  if (superseded()) return null;
  const shown = search.results.slice(0, settings.shown);
  const pages = await Promise.all(shown.map((result) => result.data()));
  const terms = Object.fromEntries(words.split(/\s+/).filter(Boolean).map((word) => [word, true]));
  const items = pages.map((page, i) => group(page, shown[i].score, terms));
  const more = search.results.length - shown.length;
  if (more > 0) items.push([moreResults(more, words)]);
  return { items, matches: search.results.length };
}

// One page's result as Material renders it: the page first, then its sections; sections with
// the page's score show, the others fold under "more" (Material's rule).
function group(page, score, terms) {
  const location = relative(page.url);
  // The page's own top (its text before the first heading, or its title heading) is the page.
  const isTop = (section) => relative(section.url) === location || section.anchor?.element === "h1";
  const sections = page.sub_results.filter((section) => !isTop(section));
  const top = page.sub_results.find(isTop);
  const article = {
    location,
    title: escapeHtml(page.meta.title || location),
    text: paragraph((top || page).excerpt),
    score,
    terms,
  };
  const ranked = sections
    .map((section) => ({ section, weight: section.locations.length }))
    .sort((a, b) => b.weight - a.weight);
  return [
    article,
    ...ranked.map(({ section }, rank) => ({
      location: relative(section.url),
      title: escapeHtml(section.title),
      text: paragraph(section.excerpt),
      score: rank < 3 ? score : score / 2,
      terms,
    })),
  ];
}

// The last item when more pages match than are shown.
function moreResults(count, words) {
  const url = settings.more_url + (words ? "?q=" + encodeURIComponent(words) : "");
  return {
    location: url,
    title: escapeHtml(settings.strings.search_more_title.replace("{count}", count)),
    text: paragraph(escapeHtml(settings.strings.search_more_text)),
    score: 0,
    terms: {},
  };
}

function featuresWith(filters) {
  const query = new URLSearchParams();
  const named = [];
  for (const [name, { any }] of Object.entries(filters)) {
    const key = settings.keys[name][any[0]] ?? any[0];
    query.set(settings.features_filters[name], key);
    named.push(`${name}:${key}`);
  }
  return {
    location: settings.more_url + "?" + query,
    title: escapeHtml(settings.strings.search_filters_only_title.replace("{filters}", named.join(" "))),
    text: paragraph(escapeHtml(settings.strings.search_filters_only_text)),
    score: 0,
    terms: {},
  };
}

function unknownFilter(text, { name, value, choices }) {
  const typedName = text.match(new RegExp("(\\S+)[:：]" + escapeRegExp(value)))?.[1] || name;
  const message = settings.strings.search_unknown_filter
    .replace("{filter}", typedName)
    .replace("{value}", value)
    .replace("{choices}", choices.slice(0, 12).join(", "));
  return { location: settings.more_url, title: escapeHtml(message), text: "", score: 0, terms: {} };
}

// Pagefind's URLs start at the bundle's site root ("/features/x/#a"); Material resolves a
// result's location against the language's base.
function relative(url) {
  return url.replace(/^\//, "");
}

// Pagefind's excerpts are escaped text with <mark> around the matches.
function paragraph(excerpt) {
  return excerpt ? "<p>" + excerpt + "</p>" : "";
}

// The keys a reader can type for these values (each value is indexed as key and as name).
function keysOf(name, values) {
  return [...new Set(values.map((value) => settings.keys[name][value] ?? value))];
}

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => "&#" + c.charCodeAt(0) + ";");
}

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
