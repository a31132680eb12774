% Declared by Rondo's bridge: events (the io.modelcontextprotocol/events extension) have no
% protocol in Logtalk's mcp_server library.
:- protocol(mcp_event_protocol).

	:- info([comment is 'Event types the server offers (SEP-3415), declared by the Rondo bridge; occurrences are raised with {mcp_emit(Name, Data)}.']).

	:- public(events/1).
	:- mode(events(-list), zero_or_one).
	:- info(events/1, [comment is 'The event types: event(Name, Properties) with description/1, title/1, input/1, payload/1, modes/1 and replay/1 properties.', argnames is ['Events']]).

:- end_protocol.
