/** <module> Answers one call: a tool, a prompt, a resource read or a completion, with the fallbacks of
    Logtalk's mcp_server library (round hook, then the plain hook, then auto-dispatch for tools).
*/
:- module(rondo_calls, [call_tool/5, get_prompt/5, read_resource/5, complete/2, elicit/4, progress/4]).

:- use_module(rondo_provider).
:- use_module(rondo_describe, [tool_spec/3, arg_specs/2]).
:- use_module(rondo_vocab).
:- use_module(rondo_types, [type_json/2]).
:- use_module(rondo_errors, [error_description/3, log_raw_error/2, call_failed/2, invalid_result/2]).
:- use_module(rondo_json, [curly_pairs/2, curly_get/3, json_text/2, is_json/1]).
:- use_module(rondo_channel, [send/1, receive_answer/1]).
:- use_module(library(lists)).

%!  call_tool(+Id, +Name, +Arguments, +Context, -Json) is det.
call_tool(Id, Name, Args, Ctx, J) :-
    (   tool_spec(Name, F, A) -> true ; call_failed(unknown, 'Unknown tool') ),
    curly_pairs(Args, Pairs),
    catch(tool_outcome(Id, Name, F/A, Args, Pairs, Ctx, R), E, exception_result(Name, F/A, E, R)),
    round_value(tool, R, J).

% Logtalk's rule: an exception raised by a tool is a tool error naming the exception. Rondo adds
% mcp_error(Code, Message): the call fails with that JSON-RPC error (a task becomes failed). An
% ISO error term is named in words (error_description/3); the raw term goes to the server log.
exception_result(_, _, mcp_error(Code, Message), _) :- integer(Code), !,
    text_of(Message, Text), call_failed(mcp_error(Code), Text).
exception_result(Name, PI, E, error(Text)) :-
    error_description(E, PI, Text), !,
    format(atom(What), 'tool ~w', [Name]),
    log_raw_error(What, E).
exception_result(_, _, E, error(E)).

tool_outcome(Id, Name, _, _, Pairs, Ctx, R) :-
    curly_get(Ctx, elicit, @(true)),
    hook(capabilities(Caps)), memberchk(elicitation, Caps),
    hook(tool_call(Name, Pairs, rondo_calls:elicit(Id), R)), !.
tool_outcome(Id, Name, _, _, Pairs, Ctx, R) :-
    hook_defined(tool_call_round(_, _, _, _)),
    request_context(Id, Ctx, RC),
    hook(tool_call_round(Name, Pairs, RC, R)), !.
tool_outcome(_, Name, _, _, Pairs, _, R) :-
    hook(tool_call(Name, Pairs, R)), !.
tool_outcome(_, _, F/A, Args, _, _, R) :-
    auto_dispatch(F, A, Args, R), !.
% A failure answers Logtalk's own text, which its clients and tests compare; the tool and its
% predicate, which a user with several tools needs to tell them apart, go to the server log.
tool_outcome(_, Name, PI, _, _, _, error('Tool predicate failed')) :-
    (   PI = F/A
    ->  format(atom(Detail), 'its predicate ~w/~w has no solution for these arguments', [F, A])
    ;   Detail = 'its predicate has no solution for these arguments'
    ),
    log_line(Name, Detail).

log_line(Name, Detail) :-
    % The log is a courtesy: an error writing it must not replace the call's own answer.
    catch(format(user_error, 'rondo: tool ~w failed: ~w~n', [Name, Detail]), error(_, _), true).

%!  auto_dispatch(+Functor, +Arity, +Arguments, -Result) is semidet.
%   Binds input-mode arguments by name, calls the predicate once, and returns the output-mode
%   arguments as structured content (with a Name: Value text for clients that read text only).
auto_dispatch(F, A, Args, structured([text(Text)], SC)) :-
    functor(Goal, F, A),
    arg_specs(Goal, Specs),
    foldl(bind_input(Goal, Args), Specs, 1, _),
    provider_call(Goal), !,
    foldl(collect_output(Goal), Specs, 1-[], _-Rev),
    reverse(Rev, Outputs),
    curly_pairs(SC, Outputs),
    output_text(Outputs, Text).

bind_input(Goal, Args, spec(Name, input, _, _), N, N1) :-
    curly_get(Args, Name, Value), !, arg(N, Goal, Value), N1 is N + 1.
bind_input(_, _, _, N, N1) :- N1 is N + 1.

collect_output(Goal, spec(Name, output, Type, _), N-Acc, N1-[Name-J|Acc]) :- !,
    arg(N, Goal, V), output_json(Type, V, J), N1 is N + 1.
collect_output(_, _, N-Acc, N1-Acc) :- N1 is N + 1.

output_text([], 'Success') :- !.
output_text(Outputs, Text) :-
    findall(Line, (member(K-V, Outputs), json_line(K, V, Line)), Lines),
    atomic_list_concat(Lines, '\n', Text).

json_line(K, V, Line) :-
    (   atomic(V) -> format(atom(Line), '~w: ~w', [K, V])
    ;   json_text(V, T), format(atom(Line), '~w: ~s', [K, T])
    ).

% Output values are shaped to the inferred schema type, so the structured content keeps the
% promise of the advertised outputSchema.
output_json(_, V, @(null)) :- var(V), !.
output_json(list(T), V, J) :- nonvar(T), type_json(T, string), is_list(V), !,
    maplist(output_json(T), V, J).
output_json(Type, V, J) :- type_json(Type, JT), output_value(JT, V, J).

output_value(boolean, V, J) :- !, ( memberchk(V, [true, @(true)]) -> J = @(true) ; J = @(false) ).
output_value(JT, V, V) :- memberchk(JT, [integer, number]), number(V), !.
output_value(array, V, J) :- is_list(V), !, maplist(lenient_json, V, J).
output_value(object, V, V) :- V = {_}, is_json(V), !.
output_value(object, {}, {}) :- !.
% The atom '{}' is also the empty object: as text it is sent as a string, so it stays text.
output_value(string, V, S) :- V == {}, !, atom_string(V, S).
output_value(string, V, V) :- ( atom(V) ; string(V) ), !.
output_value(_, V, A) :- format(atom(A), '~q', [V]).

lenient_json(V, V) :- is_json(V), !.
lenient_json(V, A) :- format(atom(A), '~q', [V]).

%!  get_prompt(+Id, +Name, +Arguments, +Context, -Json) is det.
get_prompt(Id, Name, Args, Ctx, J) :-
    curly_pairs(Args, Pairs),
    (   hook_defined(prompt_get_round(_, _, _, _)),
        request_context(Id, Ctx, RC),
        hook(prompt_get_round(Name, Pairs, RC, R)) -> true
    ;   hook(prompt_get(Name, Pairs, R)) -> true
    ;   call_failed(failed, 'Prompt execution failed')
    ),
    reject_error(R),
    round_value(prompt, R, J).

%!  read_resource(+Id, +Uri, +Known, +Context, -Json) is det.
%   Json is @null when the provider has no such resource (a URI it did not list, unanswered).
read_resource(Id, Uri, Known, Ctx, J) :-
    (   hook_defined(resource_read_round(_, _, _, _)),
        request_context(Id, Ctx, RC),
        hook(resource_read_round(Uri, [], RC, R)) -> true
    ;   hook(resource_read(Uri, [], R)) -> true
    ;   Known == @(true) -> call_failed(failed, 'Resource read failed')
    ;   R = none
    ),
    (   R == none -> J = @(null)
    ;   reject_error(R), round_value(resource, R, J)
    ).

% For prompts and resources, error(E) is a failed request, not a result.
reject_error(error(E)) :- !, text_of(E, T), call_failed(failed, T).
reject_error(complete(error(E))) :- !, reject_error(error(E)).
reject_error(_).

%!  complete(+Request, -Json) is det.
%   completion/4; Json is @null when the provider has no completion for it.
complete(Req, J) :-
    curly_get(Req, ref, Ref0), curly_get(Req, argument, Arg0), curly_get(Req, context, Ctx0),
    reference(Ref0, Ref),
    curly_get(Arg0, name, AName), curly_get(Arg0, value, AValue),
    curly_pairs(Ctx0, Context),
    (   hook(completion(Ref, AName-AValue, Context, Result))
    ->  completion_json(Result, J)
    ;   J = @(null)
    ).

reference(R, prompt(N)) :- curly_get(R, type, 'ref/prompt'), !, curly_get(R, name, N).
reference(R, resource(U)) :- curly_get(R, uri, U).

completion_json(completion(Vs), J) :- !, curly_pairs(J, [values-Vs]).
completion_json(completion(Vs, Total, More), J) :- !,
    ( More == true -> M = @(true) ; M = @(false) ),
    curly_pairs(J, [values-Vs, total-Total, hasMore-M]).
completion_json(Other, _) :- invalid_result(completion, Other).

request_context(Id, Ctx, request_context(Caps, Responses, State, rondo_calls:progress(Id))) :-
    ( curly_get(Ctx, clientCapabilities, Caps) -> true ; Caps = {} ),
    ( curly_get(Ctx, inputResponses, Rs) -> true ; Rs = [] ),
    maplist(response_term, Rs, Responses),
    ( curly_get(Ctx, state, S) -> state_term(S, State) ; State = none ).

response_term(R, input_response(Key, T)) :-
    curly_get(R, key, Key), curly_get(R, value, V), input_response_term(V, T).

%!  progress(+Id, +Value, +Total, +Message) is det.
%   The Progress closure of request_context/4: sent at once, while the call goes on.
progress(Id, Value, Total, Message) :-
    must_be(number, Value),
    findall(K-V, (member(K-V, [total-Total, message-Message]), \+ omitted(V)), Extra),
    curly_pairs(J, [type-progress, id-Id, progress-Value|Extra]),
    send(J).

omitted(V) :- var(V), !.
omitted(none).
omitted('').

%!  elicit(+Id, +Message, +Schema, -Answer) is det.
%   The Elicit closure of tool_call/4: asks Node (which asks the client) and waits for the
%   answer on the channel: accept(Content), decline or cancel.
elicit(Id, Message, Schema0, Answer) :-
    form_schema(Schema0, Schema),
    curly_pairs(J, [type-elicit, id-Id, message-Message, schema-Schema]),
    send(J),
    (   receive_answer(Reply), curly_get(Reply, value, V),
        input_response_term(V, T), memberchk(T, [accept(_), decline, cancel])
    ->  Answer = T
    ;   Answer = cancel
    ).
