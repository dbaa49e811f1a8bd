package deploy

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/toolsearch/toolsearch/search"
	"gopkg.in/yaml.v3"
)

// serviceName is the search service's health name (server.ServiceName;
// deploy may not import server).
const serviceName = "toolsearch.v1.ToolSearchService"

// obj is a decoded YAML mapping.
type obj = map[string]any

// docs decodes every document of a YAML file.
func docs(t *testing.T, file string) []obj {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	var out []obj
	for {
		var d obj
		err := dec.Decode(&d)
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if d != nil {
			out = append(out, d)
		}
	}
}

// get walks keys (strings for mappings, ints for sequences); nil if absent.
func get(v any, keys ...any) any {
	for _, k := range keys {
		switch k := k.(type) {
		case string:
			m, ok := v.(obj)
			if !ok {
				return nil
			}
			v = m[k]
		case int:
			s, ok := v.([]any)
			if !ok || k >= len(s) {
				return nil
			}
			v = s[k]
		}
	}
	return v
}

func str(v any, keys ...any) string {
	s, _ := get(v, keys...).(string)
	return s
}

func list(v any, keys ...any) []any {
	s, _ := get(v, keys...).([]any)
	return s
}

// sidecarFlags lists the sidecar's flags from its --help.
func sidecarFlags(t *testing.T) []string {
	t.Helper()
	out, err := exec.Command("go", "run", "../cmd/sidecar", "--help").CombinedOutput()
	if err != nil {
		t.Fatalf("sidecar --help: %v\n%s", err, out)
	}
	var flags []string
	for _, line := range strings.Split(string(out), "\n") {
		if name, ok := strings.CutPrefix(line, "  --"); ok {
			flags = append(flags, strings.Fields(name)[0])
		}
	}
	if len(flags) < 10 {
		t.Fatalf("found only %v in --help", flags)
	}
	return flags
}

// checkEnvNames fails for a TOOLSEARCH_* variable that no flag reads.
func checkEnvNames(t *testing.T, where string, env map[string]string, flags []string) {
	t.Helper()
	for name := range env {
		flag, ok := strings.CutPrefix(name, "TOOLSEARCH_")
		if !ok {
			continue
		}
		flag = strings.ToLower(strings.ReplaceAll(flag, "_", "-"))
		if !slices.Contains(flags, flag) {
			t.Errorf("%s: %s sets no flag (there is no --%s)", where, name, flag)
		}
	}
}

func containerEnv(c any) map[string]string {
	env := map[string]string{}
	for _, e := range list(c, "env") {
		env[str(e, "name")] = str(e, "value")
	}
	return env
}

// mountFor returns the volume mounted at the directory holding file (or at
// file itself), and the mount path.
func mountFor(c any, file string) (string, string) {
	for _, m := range list(c, "volumeMounts") {
		mp := str(m, "mountPath")
		if file == mp || strings.HasPrefix(file, strings.TrimSuffix(mp, "/")+"/") {
			return str(m, "name"), mp
		}
	}
	return "", ""
}

func volume(spec any, name string) any {
	for _, v := range list(spec, "volumes") {
		if str(v, "name") == name {
			return v
		}
	}
	return nil
}

func findContainer(cs []any, name string) (any, int) {
	for i, c := range cs {
		if str(c, "name") == name {
			return c, i
		}
	}
	return nil, -1
}

func TestKubernetesManifests(t *testing.T) {
	flags := sidecarFlags(t)
	configMaps := map[string]obj{}
	secrets := map[string]obj{}
	services := map[string]obj{}
	var deployments []struct {
		file string
		d    obj
	}
	files, err := filepath.Glob("kubernetes/*.yaml")
	if err != nil || len(files) < 4 {
		t.Fatalf("manifests: %v, %v", files, err)
	}
	for _, f := range files {
		for _, d := range docs(t, f) {
			if str(d, "apiVersion") == "" || str(d, "kind") == "" || str(d, "metadata", "name") == "" {
				t.Errorf("%s: a document without apiVersion, kind or metadata.name", f)
			}
			name := str(d, "metadata", "name")
			switch str(d, "kind") {
			case "ConfigMap":
				configMaps[name] = d
			case "Secret":
				secrets[name] = d
			case "Service":
				services[name] = d
			case "Deployment":
				deployments = append(deployments, struct {
					file string
					d    obj
				}{f, d})
			}
		}
	}
	if len(deployments) != 3 {
		t.Fatalf("want 2 agent Deployments (Ollama as a sidecar, Ollama as a Service) and Ollama's, got %d", len(deployments))
	}

	example, err := os.ReadFile("../examples/catalog.json")
	if err != nil {
		t.Fatal(err)
	}
	if got := str(configMaps["toolsearch-catalog"], "data", "catalog.json"); strings.TrimSpace(got) != strings.TrimSpace(string(example)) {
		t.Error("ConfigMap toolsearch-catalog's catalog.json differs from examples/catalog.json")
	}

	var sawSidecarOllama, sawServiceOllama bool
	for _, dep := range deployments {
		f, d := dep.file, dep.d
		spec := get(d, "spec", "template", "spec")
		if get(d, "spec", "selector", "matchLabels") == nil {
			t.Errorf("%s: no selector", f)
		}
		inits := list(spec, "initContainers")
		ts, tsIndex := findContainer(inits, "toolsearch")
		if ts == nil {
			if str(d, "metadata", "name") != "ollama" {
				t.Errorf("%s: %s has no toolsearch init container", f, str(d, "metadata", "name"))
			}
			continue
		}
		where := f + ": toolsearch"
		if str(ts, "restartPolicy") != "Always" {
			t.Errorf("%s: restartPolicy %q, want Always (a native sidecar)", where, str(ts, "restartPolicy"))
		}
		if len(list(spec, "containers")) == 0 {
			t.Errorf("%s: no agent container", f)
		}

		env := containerEnv(ts)
		checkEnvNames(t, where, env, flags)
		checkMemoryBudget(t, where, ts, env)
		if env["TOOLSEARCH_LISTEN"] != "0.0.0.0:50051" {
			t.Errorf("%s: TOOLSEARCH_LISTEN %q: the kubelet's probes need the pod IP", where, env["TOOLSEARCH_LISTEN"])
		}
		if env["TOOLSEARCH_AUTH_TOKEN_FILE"] == "" {
			t.Errorf("%s: listening beyond loopback without a token", where)
		}
		ports := map[string]int{}
		for _, p := range list(ts, "ports") {
			n, _ := get(p, "containerPort").(int)
			ports[str(p, "name")] = n
		}
		if ports["grpc"] != 50051 || ports["metrics"] != 9090 {
			t.Errorf("%s: ports %v, want grpc 50051 and metrics 9090", where, ports)
		}
		for _, probe := range []string{"startupProbe", "readinessProbe", "livenessProbe"} {
			if port, _ := get(ts, probe, "grpc", "port").(int); port != 50051 {
				t.Errorf("%s: %s is not a gRPC probe on 50051", where, probe)
			}
		}
		for _, probe := range []string{"startupProbe", "readinessProbe"} {
			if s := str(ts, probe, "grpc", "service"); s != serviceName {
				t.Errorf("%s: %s checks service %q, want %s", where, probe, s, serviceName)
			}
		}
		for _, c := range append(slices.Clone(inits), list(spec, "containers")...) {
			for _, k := range []string{"requests", "limits"} {
				if str(c, "resources", k, "memory") == "" {
					t.Errorf("%s: container %s has no memory %s", f, str(c, "name"), k)
				}
			}
		}
		if get(ts, "securityContext", "readOnlyRootFilesystem") != true || get(ts, "securityContext", "runAsUser") != 65532 {
			t.Errorf("%s: want readOnlyRootFilesystem and runAsUser 65532 (the image's user)", where)
		}

		// The catalog flag names a file of the ConfigMap's volume.
		var catalogPath string
		for _, a := range list(ts, "args") {
			if p, ok := strings.CutPrefix(a.(string), "--catalog="); ok {
				catalogPath = p
			}
		}
		vol, mp := mountFor(ts, catalogPath)
		cm := str(volume(spec, vol), "configMap", "name")
		if catalogPath == "" || cm == "" || str(configMaps[cm], "data", path.Base(catalogPath)) == "" || path.Dir(catalogPath) != mp {
			t.Errorf("%s: --catalog=%q is not a key of a mounted ConfigMap (volume %q, ConfigMap %q)", where, catalogPath, vol, cm)
		}
		// The cache directory is an emptyDir.
		vol, _ = mountFor(ts, env["TOOLSEARCH_CACHE_DIR"])
		if get(volume(spec, vol), "emptyDir") == nil {
			t.Errorf("%s: TOOLSEARCH_CACHE_DIR %q is not on an emptyDir", where, env["TOOLSEARCH_CACHE_DIR"])
		}
		// The token file is in the mounted Secret, which has that key.
		tokenFile := env["TOOLSEARCH_AUTH_TOKEN_FILE"]
		vol, _ = mountFor(ts, tokenFile)
		secret := str(volume(spec, vol), "secret", "secretName")
		if secret == "" || str(secrets[secret], "stringData", path.Base(tokenFile)) == "" {
			t.Errorf("%s: TOOLSEARCH_AUTH_TOKEN_FILE %q is not a key of a mounted Secret", where, tokenFile)
		}

		// The fleet's store: a URL from a Secret (it holds the password),
		// naming a Service on PostgreSQL's port.
		for _, e := range list(ts, "env") {
			if str(e, "name") != "TOOLSEARCH_STORE" {
				continue
			}
			name, key := str(e, "valueFrom", "secretKeyRef", "name"), str(e, "valueFrom", "secretKeyRef", "key")
			u := str(secrets[name], "stringData", key)
			host, _, _ := strings.Cut(u[strings.LastIndex(u, "@")+1:], "/")
			svc, port, _ := strings.Cut(host, ":")
			if !strings.HasPrefix(u, "postgres://") || port != "5432" || get(services[svc], "spec", "ports", 0, "port") != 5432 {
				t.Errorf("%s: TOOLSEARCH_STORE is not a postgres:// URL of a Secret naming a Service on port 5432 (secret %q key %q: %q)", where, name, key, u)
			}
		}

		// A live MCP server in the pod: a native sidecar started before
		// toolsearch, listening on the port TOOLSEARCH_MCP names.
		if spec := env["TOOLSEARCH_MCP"]; spec != "" {
			found := false
			for i, c := range inits {
				for _, p := range list(c, "ports") {
					port, _ := get(p, "containerPort").(int)
					if strings.Contains(spec, "=http://127.0.0.1:"+strconv.Itoa(port)+"/") && i < tsIndex && str(c, "restartPolicy") == "Always" {
						found = true
					}
				}
			}
			if !found {
				t.Errorf("%s: TOOLSEARCH_MCP %q names no native sidecar container started before toolsearch on that port", where, spec)
			}
		}
		if env["TOOLSEARCH_EMBEDDER"] != "ollama" {
			t.Errorf("%s: TOOLSEARCH_EMBEDDER %q, want ollama", where, env["TOOLSEARCH_EMBEDDER"])
		}
		host := env["TOOLSEARCH_OLLAMA_HOST"]
		switch {
		case host == "127.0.0.1:11434":
			ollama, oi := findContainer(inits, "ollama")
			pull, pi := findContainer(inits, "ollama-pull")
			if ollama == nil || str(ollama, "restartPolicy") != "Always" || pull == nil || str(pull, "restartPolicy") != "" || !(oi < pi && pi < tsIndex) {
				t.Errorf("%s: want init containers ollama (restartPolicy Always), ollama-pull (runs to completion), then toolsearch", f)
			}
			if !strings.Contains(strings.Join(toStrings(list(pull, "command")), " "), "pull nomic-embed-text") {
				t.Errorf("%s: ollama-pull does not pull nomic-embed-text", f)
			}
			sawSidecarOllama = true
		case strings.HasPrefix(host, "ollama:"):
			svc := services["ollama"]
			if svc == nil || get(svc, "spec", "ports", 0, "port") != 11434 {
				t.Errorf("%s: TOOLSEARCH_OLLAMA_HOST %q, but no Service ollama on port 11434", f, host)
			}
			sawServiceOllama = true
		default:
			t.Errorf("%s: unexpected TOOLSEARCH_OLLAMA_HOST %q", f, host)
		}
	}
	if !sawSidecarOllama || !sawServiceOllama {
		t.Errorf("want both Ollama layouts: as a sidecar %v, as a Service %v", sawSidecarOllama, sawServiceOllama)
	}
}

func toStrings(v []any) []string {
	out := make([]string, len(v))
	for i, s := range v {
		out[i], _ = s.(string)
	}
	return out
}

func TestCompose(t *testing.T) {
	flags := sidecarFlags(t)
	d := docs(t, "compose/compose.yaml")[0]
	services := get(d, "services").(obj)
	for _, name := range []string{"ollama", "ollama-pull", "toolsearch"} {
		if services[name] == nil {
			t.Fatalf("no service %s", name)
		}
	}
	if got := strings.Join(toStrings(list(services["ollama-pull"], "command")), " "); got != "pull nomic-embed-text" {
		t.Errorf("ollama-pull runs %q, want pull nomic-embed-text", got)
	}
	if str(services["ollama-pull"], "depends_on", "ollama", "condition") != "service_healthy" {
		t.Error("ollama-pull does not wait for a healthy ollama")
	}
	ts := services["toolsearch"]
	if str(ts, "depends_on", "ollama-pull", "condition") != "service_completed_successfully" {
		t.Error("toolsearch does not wait for the model pull")
	}
	env := map[string]string{}
	for k, v := range get(ts, "environment").(obj) {
		env[k], _ = v.(string)
	}
	checkEnvNames(t, "compose toolsearch", env, flags)
	if env["TOOLSEARCH_EMBEDDER"] != "ollama" || env["TOOLSEARCH_OLLAMA_HOST"] != "ollama:11434" || env["TOOLSEARCH_OLLAMA_MODEL"] != "nomic-embed-text" {
		t.Errorf("toolsearch does not embed with the ollama service's nomic-embed-text: %v", env)
	}
	if _, err := os.Stat(filepath.Join("compose", str(ts, "build", "context"), "Dockerfile")); err != nil {
		t.Errorf("build context: %v", err)
	}
	for _, v := range toStrings(list(ts, "volumes")) {
		src, dst, _ := strings.Cut(v, ":")
		if strings.HasPrefix(src, ".") {
			if _, err := os.Stat(filepath.Join("compose", src)); err != nil {
				t.Errorf("volume %s: %v", v, err)
			}
			if strings.HasPrefix(dst, env["TOOLSEARCH_CATALOG"]) == false {
				t.Errorf("volume %s is not TOOLSEARCH_CATALOG %s", v, env["TOOLSEARCH_CATALOG"])
			}
		}
	}
	loopback := regexp.MustCompile(`^127\.0\.0\.1:\d+:\d+$`)
	for _, p := range toStrings(list(ts, "ports")) {
		if !loopback.MatchString(p) {
			t.Errorf("port %q is not published on loopback only", p)
		}
	}
}

// embeddingDims is the vector length of the embedders the manifests use, for
// the memory estimate: the built-in model's and Ollama models' by name.
var embeddingDims = map[string]int{"builtin": 100, "nomic-embed-text": 768}

// checkMemoryBudget checks that the sidecar container c knows its memory
// limit (TOOLSEARCH_MEMORY_LIMIT from its limits.memory, or auto) and that
// its --max-tools of typical tools fit the budget that limit gives
// (search.BudgetFor, search.EstimateBytes): the pod refuses upserts before
// it runs out of memory, and --max-tools is not a promise the memory cannot
// keep.
func checkMemoryBudget(t *testing.T, where string, c any, env map[string]string) {
	t.Helper()
	limit, err := parseQuantity(str(c, "resources", "limits", "memory"))
	if err != nil {
		t.Errorf("%s: limits.memory: %v", where, err)
		return
	}
	fromLimit := false
	for _, e := range list(c, "env") {
		if str(e, "name") == "TOOLSEARCH_MEMORY_LIMIT" && str(e, "valueFrom", "resourceFieldRef", "resource") == "limits.memory" {
			fromLimit = true
		}
	}
	if v := env["TOOLSEARCH_MEMORY_LIMIT"]; !fromLimit && v != "" && v != "auto" {
		t.Errorf("%s: TOOLSEARCH_MEMORY_LIMIT %q: take it from limits.memory (resourceFieldRef) or leave it auto", where, v)
	}
	if _, ok := env["GOMEMLIMIT"]; ok {
		t.Errorf("%s: GOMEMLIMIT set: the sidecar sets the Go limit from --memory-limit itself, at 95%% of it", where)
	}
	maxTools, err := strconv.Atoi(env["TOOLSEARCH_MAX_TOOLS"])
	if err != nil {
		t.Errorf("%s: TOOLSEARCH_MAX_TOOLS %q: set it to what the memory limit holds (the default, 100,000, needs GiBs)", where, env["TOOLSEARCH_MAX_TOOLS"])
		return
	}
	model := env["TOOLSEARCH_EMBEDDER"]
	if model == "ollama" {
		model = env["TOOLSEARCH_OLLAMA_MODEL"]
	}
	dims, ok := embeddingDims[model]
	if !ok {
		t.Errorf("%s: embedder %q: add its vector length to embeddingDims", where, model)
		return
	}
	need := int64(maxTools) * search.EstimateBytes(1, search.TypicalToolSize, dims)
	if budget := search.BudgetFor(limit); need > budget {
		t.Errorf("%s: --max-tools %d of typical tools (%d dimensions) need an estimated %d MiB, over the %d MiB budget of a %s limit; lower TOOLSEARCH_MAX_TOOLS to %d or raise the limit",
			where, maxTools, dims, need>>20, budget>>20, str(c, "resources", "limits", "memory"), budget/search.EstimateBytes(1, search.TypicalToolSize, dims))
	}
}

// parseQuantity parses a Kubernetes memory quantity in binary units
// ("512Mi", "1Gi") or bytes.
func parseQuantity(q string) (int64, error) {
	for suffix, factor := range map[string]int64{"Ki": 1 << 10, "Mi": 1 << 20, "Gi": 1 << 30} {
		if n, ok := strings.CutSuffix(q, suffix); ok {
			v, err := strconv.ParseInt(n, 10, 64)
			return v * factor, err
		}
	}
	return strconv.ParseInt(q, 10, 64)
}
