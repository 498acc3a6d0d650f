package cli

import (
	"errors"
	"flag"
	"time"

	"quire/internal/service"
)

// SessionConfig is how long browser sessions last.
type SessionConfig struct {
	// SessionLifetime is how long a session lasts after its sign-in,
	// used or not; SessionIdle how long it lasts without use.
	SessionLifetime time.Duration
	SessionIdle     time.Duration
}

// defaultSessionConfig is the service's defaults.
func defaultSessionConfig() SessionConfig {
	return SessionConfig{SessionLifetime: service.DefaultSessionLifetime, SessionIdle: service.DefaultSessionIdle}
}

// register binds the session flags, defaulting to the environment.
func (c *SessionConfig) register(fs *flag.FlagSet, getenv func(string) string) error {
	d := defaultSessionConfig()
	lifetime, err := envDuration(getenv, "QUIRE_SESSION_LIFETIME", d.SessionLifetime)
	if err != nil {
		return err
	}
	idle, err := envDuration(getenv, "QUIRE_SESSION_IDLE", d.SessionIdle)
	if err != nil {
		return err
	}
	fs.DurationVar(&c.SessionLifetime, "session-lifetime", lifetime,
		"how long a browser session lasts after its sign-in, used or not, such as 720h (env QUIRE_SESSION_LIFETIME)")
	fs.DurationVar(&c.SessionIdle, "session-idle", idle,
		"how long a browser session lasts without use, such as 168h (env QUIRE_SESSION_IDLE)")
	return nil
}

// Validate refuses lifetimes that are not positive.
func (c SessionConfig) Validate() error {
	if c.SessionLifetime <= 0 || c.SessionIdle <= 0 {
		return errors.New("--session-lifetime and --session-idle must be positive")
	}
	return nil
}
