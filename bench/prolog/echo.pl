% The bridge contender's tool: echo(text) answered from Prolog, the same result as the TS tool.
:- module(bench_echo, []).

tools([tool(echo, echo, 0)]).

input_schema(echo, {type-object, properties-{text-{type-string}}, required-[text]}).
output_schema(echo, {type-object, properties-{text-{type-string}}, required-[text]}).

tool_call(echo, Args, structured([text(Text)], {text-Text})) :-
    memberchk(text-Text, Args).
