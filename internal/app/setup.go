package app

import "net/http"

// setupLink is the page of the link first start prints, where the first
// admin chooses a password.
func (a *App) setupLink() passwordLink {
	return passwordLink{page: "setup", title: "Set your password", user: a.cfg.Accounts.SetupUser, use: a.cfg.Accounts.CompleteSetup}
}

// setupPage shows the first admin's password form.
func (a *App) setupPage(w http.ResponseWriter, r *http.Request) error {
	return a.showPasswordLink(w, r, a.setupLink())
}

// setup sets the first admin's password and signs them in.
func (a *App) setup(w http.ResponseWriter, r *http.Request) error {
	return a.usePasswordLink(w, r, a.setupLink())
}
