package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"
	"time"
)

// imageSpec is what the final stage of the Dockerfile says about the
// image: its configuration, and the instructions that shape its files,
// which the offline build makes from the host instead of running them.
type imageSpec struct {
	// From is the final stage's base image.
	From string
	// Env holds KEY=value pairs in the order the stage sets them.
	Env []string
	// User is "uid[:gid]" or a name.
	User string
	// WorkingDir is an absolute path.
	WorkingDir string
	// ExposedPorts are "port/protocol".
	ExposedPorts []string
	// Volumes are absolute paths.
	Volumes []string
	// Entrypoint and Cmd are exec-form commands.
	Entrypoint, Cmd []string
	// Healthcheck is the HEALTHCHECK instruction, nil without one.
	Healthcheck *healthSpec
	// Labels are the LABEL pairs.
	Labels map[string]string
	// StopSignal is the STOPSIGNAL instruction, empty without one.
	StopSignal string
	// Runs are the RUN instructions' commands, and Copies the COPY
	// instructions' arguments, as written.
	Runs, Copies []string
}

// healthSpec is a HEALTHCHECK instruction.
type healthSpec struct {
	// Test is {"CMD", args...}, or {"NONE"}.
	Test []string
	// Interval, Timeout and StartPeriod are zero when not given.
	Interval, Timeout, StartPeriod time.Duration
	// Retries is zero when not given.
	Retries int
}

// parseDockerfile reads a Dockerfile and returns the spec of its final
// stage. It reads the forms this repository's Dockerfile uses and
// refuses the others, so that the offline image never silently differs:
// commands and volumes as JSON arrays, ENV and LABEL as key=value pairs
// without variables, absolute WORKDIR and VOLUME paths.
func parseDockerfile(r io.Reader) (*imageSpec, error) {
	lines, err := instructions(r)
	if err != nil {
		return nil, err
	}
	var spec *imageSpec
	for _, l := range lines {
		word, rest, _ := strings.Cut(l.text, " ")
		word, rest = strings.ToUpper(word), strings.TrimSpace(rest)
		if word == "FROM" {
			spec = &imageSpec{From: rest, Labels: map[string]string{}}
			continue
		}
		if spec == nil {
			if word == "ARG" {
				continue // ARGs before the first FROM
			}
			return nil, fmt.Errorf("line %d of the Dockerfile: %s before FROM", l.line, word)
		}
		if err := spec.apply(word, rest); err != nil {
			return nil, fmt.Errorf("line %d of the Dockerfile: %s: %w", l.line, word, err)
		}
	}
	if spec == nil {
		return nil, fmt.Errorf("no FROM in the Dockerfile")
	}
	if len(spec.Entrypoint) == 0 {
		return nil, fmt.Errorf("the Dockerfile's final stage has no ENTRYPOINT")
	}
	return spec, nil
}

// apply records one instruction of the stage.
func (s *imageSpec) apply(word, rest string) error {
	var err error
	switch word {
	case "ARG":
	case "RUN":
		s.Runs = append(s.Runs, rest)
	case "COPY":
		s.Copies = append(s.Copies, rest)
	case "ENV":
		var pairs [][2]string
		if pairs, err = keyValues(rest); err == nil {
			for _, p := range pairs {
				s.setEnv(p[0], p[1])
			}
		}
	case "LABEL":
		var pairs [][2]string
		if pairs, err = keyValues(rest); err == nil {
			for _, p := range pairs {
				s.Labels[p[0]] = p[1]
			}
		}
	case "USER":
		if rest == "" || strings.ContainsAny(rest, " $") {
			return fmt.Errorf("want one user, uid or uid:gid, got %q", rest)
		}
		s.User = rest
	case "WORKDIR":
		if !path.IsAbs(rest) || strings.ContainsAny(rest, " $") {
			return fmt.Errorf("want an absolute path, got %q", rest)
		}
		s.WorkingDir = path.Clean(rest)
	case "EXPOSE":
		for _, p := range strings.Fields(rest) {
			port, proto, found := strings.Cut(p, "/")
			if !found {
				proto = "tcp"
			}
			if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 || (proto != "tcp" && proto != "udp") {
				return fmt.Errorf("want port or port/tcp, got %q", p)
			}
			s.ExposedPorts = append(s.ExposedPorts, port+"/"+proto)
		}
	case "VOLUME":
		var vols []string
		if vols, err = execForm(rest); err == nil {
			for _, v := range vols {
				if !path.IsAbs(v) {
					return fmt.Errorf("want absolute paths, got %q", v)
				}
				s.Volumes = append(s.Volumes, path.Clean(v))
			}
		}
	case "ENTRYPOINT":
		s.Entrypoint, err = execForm(rest)
	case "CMD":
		s.Cmd, err = execForm(rest)
	case "HEALTHCHECK":
		s.Healthcheck, err = parseHealthcheck(rest)
	case "STOPSIGNAL":
		s.StopSignal = rest
	default:
		return fmt.Errorf("not an instruction the offline image build reads")
	}
	return err
}

// setEnv sets key in Env, replacing an earlier value in place.
func (s *imageSpec) setEnv(key, value string) {
	for i, kv := range s.Env {
		if k, _, _ := strings.Cut(kv, "="); k == key {
			s.Env[i] = key + "=" + value
			return
		}
	}
	s.Env = append(s.Env, key+"="+value)
}

// parseHealthcheck reads "[--option=value...] CMD [json array]" or
// "NONE".
func parseHealthcheck(rest string) (*healthSpec, error) {
	h := &healthSpec{}
	for strings.HasPrefix(rest, "--") {
		opt, after, _ := strings.Cut(rest, " ")
		rest = strings.TrimSpace(after)
		name, value, ok := strings.Cut(strings.TrimPrefix(opt, "--"), "=")
		if !ok {
			return nil, fmt.Errorf("option %q: want --name=value", opt)
		}
		var err error
		switch name {
		case "interval":
			h.Interval, err = time.ParseDuration(value)
		case "timeout":
			h.Timeout, err = time.ParseDuration(value)
		case "start-period":
			h.StartPeriod, err = time.ParseDuration(value)
		case "retries":
			h.Retries, err = strconv.Atoi(value)
		default:
			return nil, fmt.Errorf("option %q is not read", opt)
		}
		if err != nil {
			return nil, fmt.Errorf("option %q: %w", opt, err)
		}
	}
	if strings.EqualFold(rest, "NONE") {
		h.Test = []string{"NONE"}
		return h, nil
	}
	word, args, _ := strings.Cut(rest, " ")
	if !strings.EqualFold(word, "CMD") {
		return nil, fmt.Errorf("want CMD [...] or NONE, got %q", rest)
	}
	cmd, err := execForm(strings.TrimSpace(args))
	if err != nil {
		return nil, err
	}
	h.Test = append([]string{"CMD"}, cmd...)
	return h, nil
}

// execForm reads a JSON array of strings: the image has no shell to run
// the shell form with.
func execForm(rest string) ([]string, error) {
	var args []string
	if err := json.Unmarshal([]byte(rest), &args); err != nil || len(args) == 0 {
		return nil, fmt.Errorf("want a non-empty JSON array of strings (the image has no shell), got %q", rest)
	}
	return args, nil
}

// keyValues reads space-separated key=value pairs; a value may be
// double-quoted, with backslash escapes. Variables ($NAME) are refused.
func keyValues(rest string) ([][2]string, error) {
	var pairs [][2]string
	for rest = strings.TrimSpace(rest); rest != ""; rest = strings.TrimSpace(rest) {
		key, after, ok := strings.Cut(rest, "=")
		if !ok || key == "" || strings.ContainsAny(key, " \t\"") {
			return nil, fmt.Errorf("want key=value pairs, got %q", rest)
		}
		var value string
		if strings.HasPrefix(after, `"`) {
			end := closingQuote(after)
			if end < 0 {
				return nil, fmt.Errorf("unterminated quote in %q", rest)
			}
			v, err := strconv.Unquote(after[:end+1])
			if err != nil {
				return nil, fmt.Errorf("value of %s: %w", key, err)
			}
			value, rest = v, after[end+1:]
		} else {
			value, rest, _ = strings.Cut(after, " ")
		}
		if strings.Contains(value, "$") {
			return nil, fmt.Errorf("value of %s: variables are not expanded", key)
		}
		pairs = append(pairs, [2]string{key, value})
	}
	return pairs, nil
}

// closingQuote returns the index of the double quote closing the one s
// starts with, or -1.
func closingQuote(s string) int {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return -1
}

// instruction is one logical line of a Dockerfile: continuations joined,
// comments dropped.
type instruction struct {
	line int // where it starts, from 1
	text string
}

// instructions splits a Dockerfile into its instructions.
func instructions(r io.Reader) ([]instruction, error) {
	var (
		out  []instruction
		cur  strings.Builder
		from int
	)
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue // comments may sit inside a continued instruction too
		}
		if cur.Len() == 0 {
			from = n
		} else {
			cur.WriteByte(' ')
		}
		if body, ok := strings.CutSuffix(line, `\`); ok {
			cur.WriteString(strings.TrimSpace(body))
			continue
		}
		cur.WriteString(line)
		out = append(out, instruction{line: from, text: cur.String()})
		cur.Reset()
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if cur.Len() > 0 {
		return nil, fmt.Errorf("line %d of the Dockerfile: the last instruction ends with a continuation", from)
	}
	return out, nil
}
