// The search behind Material's search box, answered from this language's Pagefind index.
//
// Material runs its search in a web worker and lets a site bring its own (its __config.search,
// set in the theme's main.html): the page sends SETUP with the file search/search_index.json
// (for us: Material's highlighter settings and ours under `releasekb`, no pages, see
// releasekb/search.py), waits for READY, then sends each QUERY and renders each RESULT with its
// own markup. The page starts this worker only when the reader first uses the search box
// (releasekb-search-page.js): it then loads Pagefind's code and the index's table of contents,
// and each query downloads only the index fragments it needs.
//
// What a query finds (see `plan`): every word of it must be a word of the index, or the start
// of one (at least PREFIX_LENGTH characters, or a Han word of two): Pagefind alone would match an
// unknown word through the longest indexed word it starts with ("xyzzyquux" through "x").
// Chinese is split into the index's own words; a single Han character only counts where the
// text has it next to the query's other characters (a phrase search), or when it is the whole
// query. A query that finds nothing here and finds pages in the other language offers those.
//
// Queries can name filters: "cache level:beta", "级别:测试版 版本:1.5"; the names a reader may use
// and the filter values come from the index (see search.py's FILTERS).
"use strict";

const SETUP = 0;
const READY = 1;
const QUERY = 2;
const RESULT = 3;

// A query word the index does not have finds pages only as the start of an indexed word, and
// only from this many characters on: "dis" finds "distributed", "di" nothing.
const PREFIX_LENGTH = 3;
// What Pagefind removes from query words and indexed words alike (dashes, brackets, quotes,
// dots, commas...), as its own code does; "+" and "#" stay ("C++", "C#").
const PUNCTUATION = /[\p{Pd}\p{Pe}\p{Pf}\p{Pi}\p{Po}\p{Ps}]/gu;
// Han as in releasekb/cjk.py, and kana letters (its _KANA_LETTER): Japanese is split like
// Chinese, with the index's own words (ハートビート is indexed as ハート and ビート, and searched as
// one word found nothing).
const HAN_RUNS = /[\u3041-\u3096\u309b-\u309f\u30a1-\u30fa\u30fc-\u30ff\u31f0-\u31ff\u3400-\u9fff\uf900-\ufaff]+/g;
const HAN = /[\u3041-\u3096\u309b-\u309f\u30a1-\u30fa\u30fc-\u30ff\u31f0-\u31ff\u3400-\u9fff\uf900-\ufaff]/;

let settings = null; // search.worker_settings: language, bundles, filter names, strings
let here = null; // this language's index
let others = null; // the other languages' indexes, made when a query finds nothing here
let latest = 0; // the number of the newest query: answers to older ones are not shown
// Queries run one at a time, and only the newest waiting one: Material sends one per key press,
// and "d", "di", "dis" would each search the whole index for nothing while "distributed" waits.
let pending = null; // the newest query not yet started
let running = null; // the promise of the loop answering queries, while it runs

self.addEventListener("message", (event) => {
  const message = event.data;
  if (message.type === SETUP) {
    settings = message.data.config.releasekb;
    if (!here || here.bundle.href !== new URL(settings.bundle, self.location.href).href) {
      here = new Index(settings.bundle);
    }
    here.segmented = settings.segmented;
    self.postMessage({ type: READY });
    here.ranked().catch(() => {});
    here.words().catch(() => {});
  } else if (message.type === QUERY) {
    ++latest;
    pending = message.data;
    if (!running) running = answerPending();
  }
});

// Lets the messages the page has already sent arrive. A search runs in one stretch, during which
// the reader's next keys wait in the worker's queue: awaiting Pagefind alone would go on with
// "d" when "distributed" is waiting behind it.
function messagesArrived() {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

async function answerPending() {
  // Messages that came together (a paste, a reader typing while a search runs, a test typing
  // key by key) are answered once: each turn starts after the messages sent have arrived.
  await messagesArrived();
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
      // Material counts the items it gets; the page (releasekb-search-page.js) shows `matches`,
      // the number of pages found, for the query in the box.
      self.postMessage({ type: RESULT, data: { ...result, query: text } });
    }
    await messagesArrived();
  }
  running = null;
}

// One language's Pagefind bundle and its Han words, loaded when first needed. Pagefind reads
// the language from the page's <html lang>; a worker has no page, so Pagefind loads the bundle's
// one language without splitting queries into words with the browser's segmenter: `plan` does
// that, with the index's own words. Each bundle's own pagefind.js is imported: one module per
// bundle, each with its own WebAssembly (two bundles must not share one). URLs in results start
// at the language's root (baseUrl), as Material's locations do.
class Index {
  constructor(bundle, segmented = false) {
    this.bundle = new URL(bundle, self.location.href);
    this.segmented = segmented;
    this.module = null;
    this.ranking = null;
    this.hanWords = null;
  }

  pagefind() {
    if (!this.module) {
      const bundle = this.bundle;
      this.module = import(new URL("pagefind.js", bundle).href).then(async (module) => {
        await module.options({ basePath: bundle.pathname, baseUrl: "/", excerptLength: 24 });
        await module.init();
        return module;
      });
      this.module.catch(() => (this.module = null)); // a later query tries again
    }
    return this.module;
  }

  // Pagefind with the ranking of search.META_WEIGHTS, which comes with the page's settings:
  // Pagefind may have loaded before them (see startEarly).
  ranked() {
    if (!this.ranking) {
      this.ranking = this.pagefind().then(async (module) => {
        await module.options({ ranking: { metaWeights: settings.meta_weights } });
        return module;
      });
      this.ranking.catch(() => (this.ranking = null));
    }
    return this.ranking;
  }

  // The index's Han words (search.han_words: two characters or more), and every start of one.
  words() {
    if (!this.hanWords) {
      const url = new URL(settings.han_words, this.bundle);
      this.hanWords = fetch(url, { cache: "no-cache" })
        .then((response) => (response.ok ? response.json() : []))
        .catch(() => [])
        .then((list) => {
          const starts = new Set();
          for (const word of list) for (let end = 2; end < word.length; end++) starts.add(word.slice(0, end));
          return { set: new Set(list), starts, longest: Math.max(1, ...list.map((word) => word.length)) };
        });
    }
    return this.hanWords;
  }
}

// The reader's words -> what Pagefind is asked, or null when a word can find nothing:
//   terms: Pagefind's query words (each must match: Pagefind intersects them);
//   phrases: runs of Han words that must stand next to each other in the text ("优化 器": the
//     index has 优化 and 器, and the query 优化器 must not find pages that have them apart);
//   latin: the other words, checked against the pages found (see `known`).
async function plan(index, words) {
  const tokens = words.split(/\s+/).filter(Boolean);
  const han = HAN.test(words) ? await index.words() : null; // (Latin words need not wait for them)
  const single = tokens.length === 1 && [...tokens[0]].length === 1 && HAN.test(tokens[0]);
  const terms = [];
  const phrases = [];
  const latin = [];
  for (const token of tokens) {
    for (const part of token.split(new RegExp(`(${HAN_RUNS.source})`))) {
      if (!part) continue;
      if (HAN.test(part)) {
        if (single) {
          terms.push(part); // a single character typed alone: the words that start with it
          continue;
        }
        const pieces = splitHan(part, han);
        if (!pieces) return null;
        terms.push(...pieces.map((piece) => piece.text));
        if (pieces.some((piece) => piece.kind === "char")) phrases.push(pieces.map((piece) => piece.text).join(" "));
      } else {
        // The segmented index cut API names at their dots: "acme.io" is the words acme and io,
        // "read_all" read and all.
        const words = index.segmented ? part.split(/[^\p{L}\p{N}+#]+/u) : [part];
        for (const word of words.map((w) => w.replace(/"/g, ""))) {
          if (!normal(word)) continue; // punctuation alone: Pagefind ignores it
          terms.push(word);
          latin.push(word);
        }
      }
    }
  }
  if (!terms.length) return null;
  return { terms, phrases, latin: [...new Set(latin)] };
}

// A run of Han characters -> the index's words, fewest pieces first; a last piece may be the
// start of a word (the reader is still typing it), and a character no word covers is a piece of
// its own ("char", which makes the run a phrase). Null when a piece would be both.
function splitHan(run, { set, starts, longest }) {
  const chars = [...run];
  const best = new Array(chars.length + 1).fill(null);
  best[chars.length] = { cost: 0, pieces: [] };
  for (let start = chars.length - 1; start >= 0; start--) {
    const options = [];
    for (let length = Math.min(longest, chars.length - start); length >= 2; length--) {
      const text = chars.slice(start, start + length).join("");
      if (set.has(text)) options.push({ text, kind: "word", next: start + length, cost: 1 });
    }
    const rest = chars.slice(start).join("");
    if (chars.length - start >= 2 && starts.has(rest)) options.push({ text: rest, kind: "start", next: chars.length, cost: 1 });
    options.push({ text: chars[start], kind: "char", next: start + 1, cost: 4 });
    for (const option of options) {
      const after = best[option.next];
      if (!after) continue;
      const cost = option.cost + after.cost;
      if (!best[start] || cost < best[start].cost) best[start] = { cost, pieces: [option, ...after.pieces] };
    }
  }
  const pieces = best[0].pieces;
  const kinds = new Set(pieces.map((piece) => piece.kind));
  return kinds.has("char") && kinds.has("start") ? null : pieces;
}

// Pagefind's form of a word: lower case, without punctuation.
function normal(word) {
  return word.toLocaleLowerCase().replace(PUNCTUATION, "");
}

// The forms a text's word is found by: whole, and each part between punctuation
// ("acme.storage" -> acmestorage, acme, storage).
function forms(word) {
  const lower = word.toLocaleLowerCase();
  return [normal(lower), ...lower.split(PUNCTUATION).filter(Boolean)];
}

// Whether Pagefind found a word of the query as a word of the index: Pagefind matches the
// words an indexed word starts with, or else the longest indexed word the query's word starts
// with ("xyzzyquux" through the "x" of x.shape). A word is known when a page found has it, or a
// word it starts (from PREFIX_LENGTH letters on), where the query matched; else when an exact
// search finds it (an indexed word in another form: "distributed" is indexed as "distribut").
async function known(word, pages, module) {
  const wanted = normal(word);
  for (const page of pages) {
    const text = page.raw_content;
    const words = text.includes("\u200B") ? text.split("\u200B") : text.split(/\s+/);
    const seen = page.locations.map((location) => words[location] || "");
    seen.push(...(page.meta.title || "").split(/\s+/), ...(page.meta.apis || "").split(/[\s,]+/));
    for (const form of seen.flatMap(forms)) {
      if (form === wanted || (form.startsWith(wanted) && [...wanted].length >= PREFIX_LENGTH)) return true;
    }
  }
  return (await module.search(`"${word}"`)).results.length > 0;
}

// What one index finds for the reader's words and filters: {results, pages} with the first
// `shown` results' data loaded, or null when nothing matches. Null too when `superseded()`.
async function find(index, words, typed, shown, superseded) {
  const module = await index.ranked();
  await messagesArrived(); // the keys typed while Pagefind loaded: a newer query may be waiting
  if (superseded()) return null;
  const resolved = await resolveFilters(module, typed);
  if (resolved.unknown) return { unknown: resolved.unknown };
  const query = await plan(index, words);
  if (!query || superseded()) return null;
  // A word shorter than PREFIX_LENGTH finds pages only where it is a word of its own (`known`),
  // which its exact search tells in a few ms, from the same index chunk. Searched as the start
  // of words, the first keys of every query ("d", "di") matched most of the index to find
  // nothing: 200 to 400 ms each at 80x60, during which the next keys' query waited.
  const short = query.latin.filter((word) => [...normal(word)].length < PREFIX_LENGTH);
  for (const word of short) {
    if (!(await module.search(`"${word}"`)).results.length || superseded()) return null;
  }
  const options = { filters: resolved.filters };
  const search = await module.search(query.terms.join(" "), options);
  let results = search.results;
  for (const phrase of query.phrases) {
    const together = new Set((await module.search(`"${phrase}"`, options)).results.map((result) => result.id));
    results = results.filter((result) => together.has(result.id));
  }
  await messagesArrived(); // the keys typed during the search: its pages need not load
  if (superseded() || !results.length) return null;
  // (the query's words are checked on the pages shown, or on the first when none is shown)
  const loaded = results.slice(0, query.latin.length ? Math.max(1, shown) : shown);
  const pages = await Promise.all(loaded.map((result) => result.data()));
  // (a short word is known: its exact search found it above)
  for (const word of query.latin) if (!short.includes(word) && !(await known(word, pages, module))) return null;
  return { results, pages: pages.slice(0, shown), query };
}

// The answer to one query, or null when `superseded()` says a newer query came meanwhile: a
// query is sent at every key press, and the pages of "d", "di", "dis"... need not be loaded.
async function answer(text, superseded) {
  const { words, filters: typed } = parse(text);
  if (!words && !Object.keys(typed).length) return { items: [] };
  if (!words) {
    // Pagefind answers a search of filters alone by loading its whole index: the features
    // table lists those features instead, with the same filters set.
    const resolved = await resolveFilters(await here.pagefind(), typed);
    if (resolved.unknown) return { items: [[unknownFilter(text, resolved.unknown)]] };
    return { items: [[featuresWith(resolved.filters)]] };
  }
  const found = await find(here, words, typed, settings.shown, superseded);
  if (superseded()) return null;
  if (found?.unknown) return { items: [[unknownFilter(text, found.unknown)]] };
  if (!found) {
    const there = mayBeElsewhere(words) ? await elsewhere(text, words, typed, superseded) : null;
    return there ?? { items: [], matches: 0 };
  }
  const terms = Object.fromEntries(words.split(/\s+/).filter(Boolean).map((word) => [word, true]));
  const ranked = rank(found.pages, found.results, words);
  const items = ranked.map(({ page, score }) => group(page, score, terms));
  const more = found.results.length - found.pages.length;
  if (more > 0) items.push([moreResults(more, words)]);
  return { items, matches: found.results.length };
}

// Whether a query that finds nothing here is worth asking the other languages: not while a Latin
// word is shorter than PREFIX_LENGTH, the length from which a word finds the words it starts. Such a
// word is most often one being typed ("d" on the way to "distributed"): offering another language's
// pages for it would be noise, and would fetch that language's whole search for nothing.
function mayBeElsewhere(words) {
  return words
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => HAN.test(word) || [...normal(word)].length >= PREFIX_LENGTH);
}

// A query that finds nothing here: the number of pages each other language finds, as a way to
// them (that language's home, whose search box opens with the query). Null if none finds any.
async function elsewhere(text, words, typed, superseded) {
  others = others ?? settings.other.map((other) => ({ other, index: new Index(other.bundle, other.segmented) }));
  for (const { other, index } of others) {
    let found;
    try {
      found = await find(index, words, typed, 0, superseded);
    } catch (error) {
      continue; // that language's site is not there (a build of one language)
    }
    if (superseded()) return null;
    if (!found || found.unknown) continue;
    const count = found.results.length;
    const strings = settings.strings;
    const title = (count === 1 ? strings.search_other_language_one : strings.search_other_language)
      .replace("{count}", count)
      .replace("{language}", other.name);
    const line = strings.search_other_language_text.replace("{query}", text.trim()).replace("{language}", other.name);
    const location = other.home + "?" + new URLSearchParams({ q: text.trim() });
    const item = { location, title: escapeHtml(title), text: paragraph(escapeHtml(line)), score: 0, terms: {} };
    return { items: [[item]], matches: 0, elsewhere: { lang: other.lang, matches: count } };
  }
  return null;
}

// The pages shown, best first. Pagefind ranks a page higher when its title (or API names, see
// search.py's META_WEIGHTS) contain the query's words; among the pages shown, the features whose
// title or API has every word of the query as a whole word come first: the one whose title is
// the query, or begins with it as its name (`acme.io`: "acme.io: streaming readers", before
// "The old acme.io function is deprecated", in every language), then the one with
// an API the query names exactly (`cache`: acme.storage.cache), then features others are parts
// of ("C++ frontend" before its "C++ optimizers now match Python's"), each group by how much of
// its title the query covers; the other pages follow in Pagefind's order.
function rank(pages, results, words) {
  const wanted = readerWords(words);
  const ranked = pages.map((page, order) => {
    const title = page.meta.title || "";
    const titleWords = new Set(readerWords(title).flatMap((word) => (HAN.test(word) ? [] : forms(word))));
    const apis = (page.meta.apis || "").split(/,\s*/).filter(Boolean);
    const apiNames = new Set(apis.flatMap((api) => [normal(api), normal(api.split(/\.|::/).pop())]));
    const inTitle = (word) => (HAN.test(word) ? title.includes(word) : titleWords.has(normal(word)));
    const inApi = (word) => apis.some((api) => forms(api).includes(normal(word)));
    const matches = wanted.length > 0 && wanted.every((word) => inTitle(word) || inApi(word));
    const named = wanted.length === 1 && apiNames.has(normal(wanted[0]));
    const letters = normal(title).replace(/\s+/g, "").length || 1;
    const covered = wanted.filter(inTitle).reduce((sum, word) => sum + normal(word).length, 0) / letters;
    const umbrella = Number((page.filters?.parts || [0])[0]) > 0;
    const titled = bare(title.split(TITLE_NAME_END)[0]) === bare(wanted.join(""));
    const key = matches ? 1 + 4 * titled + 2 * named + umbrella + covered : 0;
    return { page, score: results[order].score, order, key };
  });
  return ranked.sort((a, b) => b.key - a.key || a.order - b.order);
}

// Where a title's name ends: "acme.io: streaming readers…", "acme.io：流式读取…".
const TITLE_NAME_END = /[:：]/;

// A text as a whole, compared whatever its spaces and punctuation.
function bare(text) {
  return normal(text).replace(/[\s`]+/g, "");
}

// A text's words, Han runs apart from the rest ("acme.io：接口" -> "acme.io：", "接口").
function readerWords(text) {
  return text
    .split(/\s+/)
    .flatMap((token) => token.split(new RegExp(`(${HAN_RUNS.source})`)))
    .filter((word) => word && normal(word));
}

// One page's result as Material renders it: the page first, then its sections; sections with
// the page's score show, the others fold under "more" (Material's rule). A feature's level and
// the release it is stated as of show under its title (Material's tags, see the page script).
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
  const level = levelBadge(page.filters || {});
  if (level) article.tags = [level];
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

// "<badge>Stable</badge> as of 1.5", as the feature's page says it, or its latest change
// ("<badge>Deprecation</badge> as of 1.7"; search.page_facts).
function levelBadge(filters) {
  const [key] = filters.badge || [];
  const [text] = filters.badge_text || [];
  if (!key || !text) return null;
  const badge = `<span class="rkb-badge rkb-${key.replace(/[^a-z0-9_-]/gi, "")}">${escapeHtml(text)}</span>`;
  const [version] = filters.as_of || [];
  const release = version ? ` <span class="rkb-search-as-of">${escapeHtml(settings.strings.as_of.replace("{version}", version))}</span>` : "";
  return badge + release;
}

// "cache level:beta" -> words "cache", filters {level: ["beta"]}. A name:value token whose name is
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

// The worker's start, before any message: the page that starts it hands it Material's settings
// (SETUP) only when the page's main thread is free, and a reader typing into the box keeps that
// thread busy (a word typed at once delayed SETUP by about 300 ms in Chromium). The worker's
// address names this language's bundle (search.worker_address), so Pagefind's code and the
// index's table of contents load from the start.
function startEarly() {
  const bundle = new URLSearchParams(self.location.hash.slice(1)).get("bundle");
  if (!bundle) return; // an address without it: everything starts with SETUP
  here = new Index(bundle);
  here.pagefind().then(warmSegmenters, () => {});
}

// Pagefind splits every query with Intl.Segmenter (into words, too, for zh, ja and th), and a
// worker's first segmenter loads the break rules: 70 to 150 ms of the first query's time at
// 80x60. Done once Pagefind has asked for its index, while those files load.
function warmSegmenters() {
  try {
    for (const granularity of ["grapheme", "word"]) {
      for (const piece of new Intl.Segmenter(undefined, { granularity }).segment("warm up 预热")) void piece;
    }
  } catch (error) {
    // no Intl.Segmenter: Pagefind does without it too
  }
}

startEarly();
