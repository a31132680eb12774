% Declared by Rondo's bridge only when Logtalk's mcp_server library is not installed.
:- protocol(mcp_completion_protocol).

	:- info([comment is 'Completions of prompt arguments and resource URIs (declared by the Rondo bridge).']).

	:- public(completion/4).
	:- mode(completion(+compound, +pair, +list(pair), --compound), one).
	:- info(completion/4, [comment is 'completion(Values) or completion(Values, Total, HasMore).', argnames is ['Reference', 'Argument', 'Context', 'Result']]).

:- end_protocol.
