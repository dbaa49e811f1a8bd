package toolset

import "maps"

// Defaults are an operator's toolset settings (the sidecar's
// --deferral-threshold, --deferral-mode and --system-prompt-file, and the
// servers' descriptions), which a request's own options override. The
// zero value changes nothing. A Defaults is a value; Apply does not
// modify it.
type Defaults struct {
	// DeferralThreshold applies when a request sets none (0); 0 here means
	// DefaultDeferralThreshold.
	DeferralThreshold int
	// Defer applies when a request sets no deferral mode ("").
	Defer DeferMode
	// PromptAppend is appended to every system prompt addition (see
	// Options.PromptAppend).
	PromptAppend string
	// ServerDescriptions describe servers whose description a request
	// does not give.
	ServerDescriptions map[string]string
	// Describe, when not nil, is called by every Apply for descriptions
	// that change at run time (live MCP servers' own); ServerDescriptions
	// win over them. It must be safe for concurrent use.
	Describe func() map[string]string
}

// Validate checks the defaults as Build checks a request's options; the
// error wraps ErrInvalidOption.
func (d Defaults) Validate() error {
	if d.DeferralThreshold < 0 {
		return invalid("deferral threshold is %d; use 0 for the default of %d, or a positive count", d.DeferralThreshold, DefaultDeferralThreshold)
	}
	switch d.Defer {
	case "", DeferOmit, DeferReminder, DeferStub:
		return nil
	}
	return invalid("deferral mode %q is not known; use omit, reminder or stub", d.Defer)
}

// Apply returns opts with d filling what opts leaves unset: the
// threshold, the deferral mode, the server descriptions a request does
// not give (a request's own description of a server wins), and the
// operator text (after a request's own).
func (d Defaults) Apply(opts Options) Options {
	if opts.DeferralThreshold == 0 {
		opts.DeferralThreshold = d.DeferralThreshold
	}
	if opts.Defer == "" {
		opts.Defer = d.Defer
	}
	var live map[string]string
	if d.Describe != nil {
		live = d.Describe()
	}
	if len(d.ServerDescriptions) > 0 || len(live) > 0 {
		m := make(map[string]string, len(live)+len(d.ServerDescriptions)+len(opts.ServerDescriptions))
		maps.Copy(m, live)
		maps.Copy(m, d.ServerDescriptions)
		maps.Copy(m, opts.ServerDescriptions)
		opts.ServerDescriptions = m
	}
	opts.PromptAppend = appendPrompt(opts.PromptAppend, d.PromptAppend)
	return opts
}
