// A single-page application's shell: title, canonical, text and links
// exist only once this script ran.
document.title = "Rendered by script";
const canonical = document.createElement("link");
canonical.rel = "canonical";
canonical.href = location.origin + "/canonical-page";
document.head.appendChild(canonical);
const app = document.getElementById("app");
app.innerHTML = '<h1>Hello from the script</h1><p>Body text the server never sent.</p>' +
  '<a href="/first">First</a> <a href="/second">Second</a>';
