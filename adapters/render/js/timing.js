// Injected at document start in every frame: it keeps the performance
// entries the snapshot reads (paint, largest contentful paint, layout
// shifts, long tasks) under a property named per render, out of sight.
(() => {
  const key = "__PINSIGHT_KEY__";
  if (window[key]) return;
  const s = { fcp: 0, lcp: 0, lcpEl: "", shifts: [], tasks: [] };
  Object.defineProperty(window, key, { value: s, enumerable: false });
  const snippet = (el) => {
    if (!el || typeof el.outerHTML !== "string") return "";
    let h = el.outerHTML;
    const end = h.indexOf(">");
    if (end > 0) h = h.slice(0, end + 1);
    return h.length > 200 ? h.slice(0, 197) + "..." : h;
  };
  const observe = (type, fn) => {
    try {
      new PerformanceObserver((list) => list.getEntries().forEach(fn)).observe({ type, buffered: true });
    } catch (e) {}
  };
  observe("paint", (e) => {
    if (e.name === "first-contentful-paint") s.fcp = e.startTime;
  });
  observe("largest-contentful-paint", (e) => {
    s.lcp = e.startTime;
    s.lcpEl = snippet(e.element);
  });
  observe("layout-shift", (e) => {
    if (!e.hadRecentInput && s.shifts.length < 5000) s.shifts.push([e.startTime, e.value]);
  });
  observe("longtask", (e) => {
    if (s.tasks.length < 5000) s.tasks.push([e.startTime, e.duration]);
  });
})();
