// Builds the page a visitor sees: title, canonical, content and links.
document.title = "Trail shoes | Acme";
const canonical = document.createElement("link");
canonical.rel = "canonical";
canonical.href = location.origin + "/shoes";
document.head.appendChild(canonical);
const root = document.getElementById("root");
root.innerHTML = "<h1>Trail shoes</h1><p>" +
  "Shoes for every trail and every season, with soles that grip wet rock and uppers that dry fast. ".repeat(8) +
  "</p><a href=\"/shoes/men\">Men</a> <a href=\"/shoes/women\">Women</a>";
