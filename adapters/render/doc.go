// Package render is the browser behind ports.Renderer: it loads a page in
// a headless Chromium (driven over the DevTools protocol by chromedp) and
// returns the DOM after its scripts ran, what it requested, its console
// errors, its lab timings (TTFB, FCP, LCP, CLS, TBT) and a screenshot.
//
// # Safety
//
// A rendered page is untrusted code that asks the browser for anything;
// the rules below keep it to what Pinsight's fetcher may contact:
//
//   - Every request of the browser goes through a forward proxy of this
//     package, on a random port of 127.0.0.1, that opens every upstream
//     connection through the fetcher's SSRF guard (the same refused
//     addresses, ports and names, AllowPrivate, AllowPorts, AllowTargets,
//     the host resolved once and the address checked the one dialled) and
//     asks the render's admit before each. Plain requests are forwarded,
//     CONNECT (https, websockets) tunnelled. Each render has its own
//     proxy, in its own browser context, both used by that render only:
//     made ahead of it (the proxy refuses everything until the render
//     takes it), they end with it (from the result on the proxy refuses
//     everything, and it keeps its port until the context is disposed
//     of); the browser's default context has one that refuses everything.
//     Chromium's implicit bypass of loopback is removed ("<-loopback>"),
//     QUIC is off and WebRTC may only use proxied connections, so nothing
//     leaves around the proxy.
//   - A refused request never reaches the network: the browser gets a 403
//     or a failed tunnel, and the render records it as a Request, Refused,
//     with the guard's reason. A main document refused (the URL, or a
//     redirect of it) fails the render with a *webpage.FetchError, Refused;
//     admit's error on the main document is returned as it is (on a
//     sub-resource it is recorded as a refusal).
//   - Only http and https URLs are rendered (the guard checks the URL and
//     its host before the browser is asked); requests of other schemes
//     (file:, chrome:, ...) are refused by Chromium for a web page and
//     recorded as refused.
//   - Service workers are bypassed, downloads denied, extensions, sync,
//     component updates and background networking off; the browser runs
//     headless without a GPU, with --no-sandbox only as root.
//
// # Resources
//
// At most Config.Contexts renders run at once, each in a fresh browser
// context (an incognito profile), within Config.Total. Up to
// Config.Contexts of these contexts, each with its blank tab set up
// (about 30 MB each), are made ahead, while a render waits for its
// network to go quiet, so the next render does not wait for one; a
// render's context is disposed of in the background once its result is
// known.
//
// A page is taken once its load event fired and no request of it was in
// flight for Config.QuietPeriod (250 ms), or when Config.IdleTimeout ran
// out after the load event: a page that never settles is taken as it
// stands (Settled false).
//
// The browser starts on the first render; its process tree's memory is
// watched and over Config.MemoryMB the browser is killed (its renders
// fail, out of memory) and started again by the next render, as after a
// crash. Close kills it and waits for every process of it and for the
// contexts being made or disposed of.
package render
