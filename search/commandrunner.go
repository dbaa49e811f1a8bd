package search

import "slices"

// A request that names the command it wants run ("close firefox using
// taskkill command", "shutdown the pc, using the exact command shutdown /s
// /t 0", "disconnect wifi, using the command netsh wlan disconnect") is
// served by a tool that runs commands, whatever its verb: the command
// does the closing, the shutting down or the disconnecting, and the tool
// runs it. The unserved action read the verb alone ("close", "shutdown",
// "disconnect") and found no top tool doing it, bfcl's
// cmd_controller.execute ("Executes a system-level command ...") among
// them. A top tool does the request's verb, for the unserved action, when
// the request has the word "command" (commandWords) and the tool runs
// commands: it executes or runs (actsVerb, with fallback.VerbSynonyms)
// and has the word "command". Its object is then checked as any other
// (objectServed): the command the request names is one of its words.
//
// Measured (sixteenth session, h42-rules; docs/benchmarks.md, "What each
// no-match rule costs"), default / keyword: bfcl answerable flagged 35 →
// 33 / 34 → 32 of 1,207 (2.9 → 2.7 %, 2.8 → 2.7 %), no-answer unchanged
// (no no-answer request of a dev set names a command); no other dev set,
// dev held-out set or example pair moves (the example catalog runs no
// commands: pooled.sh, ex.sh identical); transfer-check 33+34 unchanged.

// commandWords name a command to run in a request (commanded).
var commandWords = wordSet("command commands")

// commanded reports whether the request's ranking words (ws) name a
// command to run (commandWords).
func commanded(ws []string) bool {
	return slices.ContainsFunc(ws, func(w string) bool { return commandWords[w] })
}

// runsCommands reports whether tool id runs commands: it executes or runs
// (actsVerb) and has the word "command".
func (st *state) runsCommands(id int) bool {
	return (st.actsVerb(id, "execute") || st.actsVerb(id, "run")) && st.lex.HasWord(id, "command")
}
