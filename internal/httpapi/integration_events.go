package httpapi

import (
	"context"
	"encoding/json"

	"quire/internal/quire"
)

// integrationEventJSON is the IntegrationEvent object.
type integrationEventJSON struct {
	ID             string          `json:"id"`
	IntegrationID  string          `json:"integrationId"`
	InstallationID string          `json:"installationId,omitempty"`
	CreatedAt      string          `json:"createdAt" format:"date-time"`
	Payload        json.RawMessage `json:"payload" doc:"The event sent (Event)"`
	Status         string          `json:"status" enum:"success,failed"`
}

// integrationLogJSON is an IntegrationEventLog.
type integrationLogJSON struct {
	Message   string `json:"message"`
	Timestamp string `json:"timestamp" format:"date-time"`
	Level     string `json:"level" enum:"debug,info,warn,error"`
}

// integrationEventOut converts an event.
func integrationEventOut(ev *quire.IntegrationEvent) integrationEventJSON {
	return integrationEventJSON{ID: ev.ID, IntegrationID: ev.IntegrationID, InstallationID: ev.InstallationID,
		CreatedAt: timestamp(ev.CreatedAt), Payload: ev.Payload, Status: string(ev.Status)}
}

func (s *Server) listIntegrationEvents(ctx context.Context, in *struct {
	IntegrationPath
	ListParams
}) (*body[listOf[integrationEventJSON]], error) {
	n, err := s.integrations.get()
	if err != nil {
		return nil, err
	}
	l, err := n.Events(ctx, userFrom(ctx), in.IntegrationName, in.page())
	if err != nil {
		return nil, err
	}
	return reply(listJSON(l, integrationEventOut)), nil
}

// integrationEventReply is an event with the logs of its last delivery.
type integrationEventReply struct {
	Event integrationEventJSON `json:"event"`
	Trace struct {
		Logs []integrationLogJSON `json:"logs"`
	} `json:"trace"`
}

func (s *Server) getIntegrationEvent(ctx context.Context, in *struct {
	IntegrationPath
	EventID string `path:"eventId" minLength:"1" maxLength:"64" doc:"Id of the event"`
}) (*body[integrationEventReply], error) {
	n, err := s.integrations.get()
	if err != nil {
		return nil, err
	}
	ev, err := n.Event(ctx, userFrom(ctx), in.IntegrationName, in.EventID)
	if err != nil {
		return nil, err
	}
	out := integrationEventReply{Event: integrationEventOut(ev)}
	out.Trace.Logs = []integrationLogJSON{}
	for _, l := range ev.Logs {
		out.Trace.Logs = append(out.Trace.Logs, integrationLogJSON{Message: l.Message, Timestamp: timestamp(l.Time), Level: string(l.Level)})
	}
	return reply(out), nil
}
