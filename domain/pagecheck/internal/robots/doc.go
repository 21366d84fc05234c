// Package robots holds robots.txt as the checks read it: the rules of the
// group for every crawler and the sitemaps it lists.
package robots
