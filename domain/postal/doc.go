// Package postal is the India Post directory as a domain: post offices,
// pincodes, states and districts (identified by LGD codes), villages, the
// cleaning rules that turn the published files into trustworthy records, and
// the name matching and search ranking rules. It does no I/O.
package postal
