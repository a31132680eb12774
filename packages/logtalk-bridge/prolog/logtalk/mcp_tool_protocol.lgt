% Declared by Rondo's bridge only when Logtalk's mcp_server library is not installed, so that
% provider objects written for that library load unchanged. Same names, modes and meaning.
:- protocol(mcp_tool_protocol).

	:- info([comment is 'Objects providing MCP tools (declared by the Rondo bridge).']).

	:- public(capabilities/1).
	:- mode(capabilities(-list(atom)), one).
	:- info(capabilities/1, [comment is 'Extra features: prompts, resources, completions, elicitation.', argnames is ['Capabilities']]).

	:- public(tools/1).
	:- mode(tools(-list(compound)), one).
	:- info(tools/1, [comment is 'Tool descriptors tool(Name, Functor, Arity).', argnames is ['Tools']]).

	:- public(tool_call/3).
	:- mode(tool_call(+atom, +list(pair), --compound), one).
	:- info(tool_call/3, [comment is 'Handles a tool call.', argnames is ['Name', 'Arguments', 'Result']]).

	:- public(tool_call/4).
	:- meta_predicate(tool_call(*, *, 3, *)).
	:- mode(tool_call(+atom, +list(pair), +callable, --compound), one).
	:- info(tool_call/4, [comment is 'Handles a tool call that may elicit input: call(Elicit, Message, Schema, Answer).', argnames is ['Name', 'Arguments', 'Elicit', 'Result']]).

	:- public(input_schema/2).
	:- mode(input_schema(+atom, -compound), zero_or_one).
	:- info(input_schema/2, [comment is 'Overrides the inferred input schema of a tool.', argnames is ['Name', 'Schema']]).

	:- public(output_schema/2).
	:- mode(output_schema(+atom, -compound), zero_or_one).
	:- info(output_schema/2, [comment is 'Declares the output schema of a tool.', argnames is ['Name', 'Schema']]).

:- end_protocol.
