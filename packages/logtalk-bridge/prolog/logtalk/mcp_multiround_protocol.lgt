% Declared by Rondo's bridge only when Logtalk's mcp_server library is not installed.
:- protocol(mcp_multiround_protocol).

	:- info([comment is 'Round hooks: complete(Result) or input_required(Requests, State) (declared by the Rondo bridge).']).

	:- public(tool_call_round/4).
	:- mode(tool_call_round(+atom, +list(pair), +compound, --compound), zero_or_one).
	:- info(tool_call_round/4, [comment is 'One round of a tool call.', argnames is ['Name', 'Arguments', 'Context', 'RoundResult']]).

	:- public(prompt_get_round/4).
	:- mode(prompt_get_round(+atom, +list(pair), +compound, --compound), zero_or_one).
	:- info(prompt_get_round/4, [comment is 'One round of a prompt get.', argnames is ['Name', 'Arguments', 'Context', 'RoundResult']]).

	:- public(resource_read_round/4).
	:- mode(resource_read_round(+atom, +list(pair), +compound, --compound), zero_or_one).
	:- info(resource_read_round/4, [comment is 'One round of a resource read.', argnames is ['URI', 'Arguments', 'Context', 'RoundResult']]).

:- end_protocol.
