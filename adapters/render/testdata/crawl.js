// The script of the crawl benchmark's single-page application: the page's
// title, canonical, text and links come from its JSON, fetched.
(async () => {
  const n = location.pathname.split("/").pop();
  const res = await fetch("/api/p/" + n + ".json");
  const p = await res.json();
  document.title = p.title;
  const canonical = document.createElement("link");
  canonical.rel = "canonical";
  canonical.href = location.origin + "/p/" + p.n;
  document.head.appendChild(canonical);
  const meta = document.createElement("meta");
  meta.name = "description";
  meta.content = p.description;
  document.head.appendChild(meta);
  const app = document.getElementById("app");
  app.innerHTML = "<h1>" + p.title + "</h1><p>" + p.text + "</p><nav>" +
    p.links.map((l) => '<a href="/p/' + l + '">Page ' + l + "</a>").join(" ") + "</nav>";
})();
