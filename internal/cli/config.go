package cli

import (
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"strings"
	"time"

	"quire/internal/service"
)

// Defaults of the serve command.
const (
	DefaultAddr         = "127.0.0.1:8080"
	DefaultMaxBodyBytes = 1 << 20
	DefaultLogFormat    = "text"
	DefaultLogLevel     = "info"
	DefaultOrgTitle     = "My organization"
	DefaultAdminEmail   = "admin@localhost"
	DefaultAdminName    = "Admin"
)

// Config is the configuration of the serve command.
type Config struct {
	StoreConfig

	// Addr is the TCP address to listen on; port 0 picks a free one.
	Addr string
	// MetricsAddr is the TCP address of the Prometheus /metrics listener,
	// kept apart from the API; empty serves no metrics.
	MetricsAddr string
	// BaseURL is the absolute URL clients reach the server at; empty
	// derives it from the address actually bound.
	BaseURL string
	// MaxBodyBytes bounds request bodies.
	MaxBodyBytes int64
	// LogFormat is text or json.
	LogFormat string
	// LogLevel is debug, info, warn or error.
	LogLevel string
	// AllowLocalFetch lets fetches of user-given URLs reach loopback,
	// private and other non-public addresses.
	AllowLocalFetch bool
	// StrictInput refuses request fields an operation does not declare
	// instead of ignoring them.
	StrictInput bool
	// SecretKeyFile names a file holding the key (32 bytes, raw or
	// base64) that seals the Git credentials queued jobs carry, the SAML
	// service provider key and the private keys of sites; empty keeps a
	// generated key in the database.
	SecretKeyFile string
	// PDFFontDir is a directory searched first for the fonts PDFs are set
	// in; the system's font directories come after it.
	PDFFontDir string
	// OpenAPIRefresh is how often OpenAPI specifications given by URL are
	// fetched again; OpenAPIFetchTimeout bounds one fetch of a
	// specification's files.
	OpenAPIRefresh      time.Duration
	OpenAPIFetchTimeout time.Duration
	// GitTimeout bounds one Git Sync import or export: the fetch or push
	// and the writing into the space.
	GitTimeout time.Duration
	// SessionConfig is how long browser sessions last.
	SessionConfig
	// RateLimitConfig is the rate limits and the trusted proxies.
	RateLimitConfig

	// TranslatorURL names the machine translation engine translations
	// run with, its scheme naming the engine; empty runs none.
	// TranslatorKey is the engine's API key, read from the environment
	// only, so that it is never seen in a process list, and never logged.
	TranslatorURL string
	TranslatorKey string

	// OIDC configures sign-in through an OpenID Connect issuer.
	OIDC OIDCConfig
	// SMTPURL names the SMTP server reset and confirmation links and
	// notifications are emailed through, smtp://user:password@host:port; empty sends no
	// email. SMTPFrom is the sender address.
	SMTPURL  string
	SMTPFrom string

	// OrgTitle, AdminEmail and AdminName describe what the first start on
	// an empty database creates.
	OrgTitle   string
	AdminEmail string
	AdminName  string
}

// DefaultConfig returns the configuration serve runs with when given no
// flags and no environment.
func DefaultConfig() Config {
	return Config{
		StoreConfig:  StoreConfig{DataDir: DefaultDataDir},
		Addr:         DefaultAddr,
		MaxBodyBytes: DefaultMaxBodyBytes,
		LogFormat:    DefaultLogFormat,
		LogLevel:     DefaultLogLevel,
		OrgTitle:     DefaultOrgTitle,
		AdminEmail:   DefaultAdminEmail,
		AdminName:    DefaultAdminName,
		// The OpenAPI specifications' defaults are the service's.
		OpenAPIRefresh:      service.DefaultOpenAPIRefreshInterval,
		OpenAPIFetchTimeout: service.DefaultOpenAPIFetchTimeout,
		GitTimeout:          service.DefaultGitTimeout,
		SessionConfig:       defaultSessionConfig(),
		RateLimitConfig:     RateLimitConfig{RateLimits: service.DefaultRateLimits()},
	}
}

// serveSynopsis is the first line of serve's usage.
const serveSynopsis = "quire serve [flags]"

// Load builds the serve configuration from the defaults, then the QUIRE_*
// variables getenv returns, then args, each overriding the one before. It
// returns an error for -h and for anything malformed; it does not validate
// (see Validate).
func Load(args []string, getenv func(string) string) (Config, error) {
	c, fs, err := serveFlags(getenv)
	if err != nil {
		return Config{}, err
	}
	if err := parseFlags(fs, serveSynopsis, args); err != nil {
		return Config{}, err
	}
	return *c, nil
}

// serveFlags returns the serve FlagSet bound to a Config whose fields hold
// the defaults overridden by the environment.
func serveFlags(getenv func(string) string) (*Config, *flag.FlagSet, error) {
	d := DefaultConfig()
	c := &Config{}
	fs := newFlagSet("serve")
	c.StoreConfig.register(fs, getenv)
	maxBody, err := envInt64(getenv, "QUIRE_MAX_BODY_BYTES", d.MaxBodyBytes)
	if err != nil {
		return nil, nil, err
	}
	allowLocal, err := envBool(getenv, "QUIRE_ALLOW_LOCAL_FETCH", false)
	if err != nil {
		return nil, nil, err
	}
	strict, err := envBool(getenv, "QUIRE_STRICT_INPUT", d.StrictInput)
	if err != nil {
		return nil, nil, err
	}
	fs.StringVar(&c.Addr, "addr", envDefault(getenv, "QUIRE_ADDR", d.Addr),
		"address to listen on, host:port; port 0 picks a free one (env QUIRE_ADDR)")
	fs.StringVar(&c.MetricsAddr, "metrics-addr", envDefault(getenv, "QUIRE_METRICS_ADDR", ""),
		"address of a separate listener serving /metrics, host:port such as 127.0.0.1:9090; empty serves none (env QUIRE_METRICS_ADDR)")
	fs.StringVar(&c.BaseURL, "base-url", envDefault(getenv, "QUIRE_BASE_URL", ""),
		"URL clients reach the server at; empty derives http://host:port from the address (env QUIRE_BASE_URL)")
	fs.Int64Var(&c.MaxBodyBytes, "max-body", maxBody,
		"largest request body accepted, in bytes (env QUIRE_MAX_BODY_BYTES)")
	fs.StringVar(&c.LogFormat, "log-format", envDefault(getenv, "QUIRE_LOG_FORMAT", d.LogFormat),
		"log format: text or json (env QUIRE_LOG_FORMAT)")
	fs.StringVar(&c.LogLevel, "log-level", envDefault(getenv, "QUIRE_LOG_LEVEL", d.LogLevel),
		"log level: debug, info, warn or error (env QUIRE_LOG_LEVEL)")
	fs.BoolVar(&c.AllowLocalFetch, "allow-local-fetch", allowLocal,
		"let files given by URL be fetched from loopback, private and link-local addresses (env QUIRE_ALLOW_LOCAL_FETCH)")
	fs.BoolVar(&c.StrictInput, "strict-input", strict,
		"refuse request fields an operation does not declare (400) instead of ignoring them (env QUIRE_STRICT_INPUT)")
	fs.StringVar(&c.SecretKeyFile, "secret-key-file", envDefault(getenv, "QUIRE_SECRET_KEY_FILE", ""),
		"file holding the 32-byte key (raw or base64) sealing Git credentials of queued jobs, the SAML service provider key and the private keys signing sites' visitor tokens; every replica needs the same; empty keeps a generated key in the database (env QUIRE_SECRET_KEY_FILE)")
	fs.StringVar(&c.PDFFontDir, "pdf-font-dir", envDefault(getenv, "QUIRE_PDF_FONT_DIR", ""),
		"directory searched first for the TrueType fonts of PDF exports (DejaVuSans*.ttf, DejaVuSansMono.ttf, DroidSansFallbackFull.ttf, NanumGothic.ttf); then the system's font directories, then the Go fonts (Latin only) (env QUIRE_PDF_FONT_DIR)")
	fs.StringVar(&c.TranslatorURL, "translator", envDefault(getenv, "QUIRE_TRANSLATOR_URL", ""),
		"machine translation engine of translations: libretranslate+http://host:port, deepl+https://api.deepl.com or openai+http://host:port/v1?model=NAME; its key goes in QUIRE_TRANSLATOR_KEY; empty runs none (env QUIRE_TRANSLATOR_URL)")
	c.TranslatorKey = getenv("QUIRE_TRANSLATOR_KEY")
	c.registerOIDCFlags(fs, getenv)
	if err := c.registerOpenAPIFlags(fs, getenv); err != nil {
		return nil, nil, err
	}
	gitTimeout, err := envDuration(getenv, "QUIRE_GIT_TIMEOUT", d.GitTimeout)
	if err != nil {
		return nil, nil, err
	}
	fs.DurationVar(&c.GitTimeout, "git-timeout", gitTimeout,
		"time allowed to one Git Sync import or export, fetch and writing into the space together (env QUIRE_GIT_TIMEOUT)")
	fs.StringVar(&c.SMTPURL, "smtp-url", envDefault(getenv, "QUIRE_SMTP_URL", ""),
		"SMTP server emailing password reset and sign-up confirmation links and notifications, smtp://user:password@host:port (STARTTLS when offered) or smtps://...; prefer the environment, which a process list does not show; empty sends no email (env QUIRE_SMTP_URL)")
	fs.StringVar(&c.SMTPFrom, "smtp-from", envDefault(getenv, "QUIRE_SMTP_FROM", ""),
		"sender address of the email, such as \"Quire <quire@example.com>\" (env QUIRE_SMTP_FROM)")
	if err := c.SessionConfig.register(fs, getenv); err != nil {
		return nil, nil, err
	}
	if err := c.RateLimitConfig.register(fs, getenv); err != nil {
		return nil, nil, err
	}
	fs.StringVar(&c.OrgTitle, "org-title", d.OrgTitle,
		"title of the organization created on first start")
	fs.StringVar(&c.AdminEmail, "admin-email", d.AdminEmail,
		"email of the admin user created on first start")
	fs.StringVar(&c.AdminName, "admin-name", d.AdminName,
		"name of the admin user created on first start")
	return c, fs, nil
}

// Validate reports the first setting that cannot work.
func (c Config) Validate() error {
	if err := c.StoreConfig.Validate(); err != nil {
		return err
	}
	if _, _, err := net.SplitHostPort(c.Addr); err != nil {
		return fmt.Errorf("--addr %q: want host:port", c.Addr)
	}
	if c.MetricsAddr != "" {
		if _, _, err := net.SplitHostPort(c.MetricsAddr); err != nil {
			return fmt.Errorf("--metrics-addr %q: want host:port", c.MetricsAddr)
		}
	}
	if c.BaseURL != "" {
		u, err := url.Parse(c.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("--base-url %q: want an absolute http or https URL", c.BaseURL)
		}
		if u.RawQuery != "" || u.Fragment != "" {
			return fmt.Errorf("--base-url %q: must not have a query or fragment", c.BaseURL)
		}
	}
	if c.MaxBodyBytes <= 0 {
		return errors.New("--max-body must be positive")
	}
	if c.GitTimeout <= 0 {
		return errors.New("--git-timeout must be positive")
	}
	if err := c.SessionConfig.Validate(); err != nil {
		return err
	}
	if err := c.RateLimitConfig.Validate(); err != nil {
		return err
	}
	if c.OpenAPIRefresh < 0 || c.OpenAPIFetchTimeout < 0 {
		return errors.New("--openapi-refresh and --openapi-fetch-timeout must not be negative")
	}
	if err := c.OIDC.validate(); err != nil {
		return err
	}
	if c.LogFormat != "text" && c.LogFormat != "json" {
		return fmt.Errorf("--log-format %q: want text or json", c.LogFormat)
	}
	if _, err := c.level(); err != nil {
		return fmt.Errorf("--log-level %q: want debug, info, warn or error", c.LogLevel)
	}
	if _, err := c.mailer(); err != nil {
		return err
	}
	if strings.TrimSpace(c.OrgTitle) == "" {
		return errors.New("--org-title must not be empty")
	}
	if strings.TrimSpace(c.AdminEmail) == "" {
		return errors.New("--admin-email must not be empty")
	}
	if strings.TrimSpace(c.AdminName) == "" {
		return errors.New("--admin-name must not be empty")
	}
	return nil
}

// level parses LogLevel.
func (c Config) level() (slog.Level, error) {
	var l slog.Level
	err := l.UnmarshalText([]byte(c.LogLevel))
	return l, err
}
