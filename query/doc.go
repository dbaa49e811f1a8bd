// Package query holds toolsearch's query language: what a tool_search
// query says, parsed once, before any mode runs, into a [Query] that every
// matcher consumes (keyword, fuzzy, regex, semantic, the learned stage).
//
// The syntax (see [Parse]):
//
//	word, "two words"    terms that rank
//	+word, -word         a required / an excluded term
//	server:NAME          only tools of server NAME
//	category:NAME        only tools of category NAME
//	select:a,b           tools a and b by exact name
//
// In regex mode the words that are not operators are one pattern
// ([ParseRegex]); a pattern of name characters and "*" is a glob
// ([IsGlob], [GlobToRegex]). A query that is exactly a tool name, after
// [ExactText] trims it, names that tool.
//
// The package is pure: functions of their arguments, safe for concurrent
// use, importing only the standard library and analysis. It knows nothing of catalogs,
// indexes or gRPC.
package query
