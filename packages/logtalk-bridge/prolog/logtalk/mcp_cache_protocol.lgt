% Declared by Rondo's bridge only when Logtalk's mcp_server library is not installed.
:- protocol(mcp_cache_protocol).

	:- info([comment is 'Cache policy of list, discover and read results (declared by the Rondo bridge).']).

	:- public(cache_policy/4).
	:- mode(cache_policy(+atom, +term, -integer, -atom), zero_or_one).
	:- info(cache_policy/4, [comment is 'TTL in milliseconds and scope (public or private) of an operation.', argnames is ['Operation', 'Request', 'TTL', 'Scope']]).

:- end_protocol.
