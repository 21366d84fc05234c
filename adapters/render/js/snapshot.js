// Evaluated once the page settled (or its time ran out): the DOM as HTML
// (doctype and documentElement.outerHTML, cut at the cap) and the lab
// timings, in milliseconds.
(() => {
  const s = window["__PINSIGHT_KEY__"] || { fcp: 0, lcp: 0, lcpEl: "", shifts: [], tasks: [] };
  const d = document;
  let doctype = "";
  const t = d.doctype;
  if (t) {
    doctype = "<!DOCTYPE " + t.name;
    if (t.publicId) doctype += ' PUBLIC "' + t.publicId + '"';
    else if (t.systemId) doctype += " SYSTEM";
    if (t.systemId) doctype += ' "' + t.systemId + '"';
    doctype += ">";
  }
  let html = d.documentElement ? d.documentElement.outerHTML : "";
  const max = __PINSIGHT_MAX__;
  const cut = html.length > max;
  if (cut) html = html.slice(0, max);
  // CLS: the largest session window (shifts less than 1 s apart, the
  // window at most 5 s long), as Lighthouse and web-vitals count it.
  let cls = 0, cur = 0, first = -1, last = -1;
  for (const [at, v] of s.shifts) {
    if (first < 0 || at - last >= 1000 || at - first >= 5000) {
      first = at;
      cur = 0;
    }
    cur += v;
    last = at;
    if (cur > cls) cls = cur;
  }
  // TBT: each long task's time beyond 50 ms, after first contentful paint.
  let tbt = 0;
  if (s.fcp > 0) {
    for (const [at, dur] of s.tasks) {
      const start = Math.max(at, s.fcp), end = at + dur;
      if (end - start > 50) tbt += end - start - 50;
    }
  }
  const nav = performance.getEntriesByType("navigation")[0];
  return {
    url: location.href,
    doctype,
    html,
    cut,
    ttfb: nav ? nav.responseStart : 0,
    fcp: s.fcp,
    lcp: s.lcp,
    lcpEl: s.lcpEl,
    cls,
    tbt,
    nodes: d.getElementsByTagName("*").length,
  };
})()
