/** <module> Entry point of a worker: `swipl ... -g rondo_bridge:main rondo_bridge.pl`.

    Node sends {"op":"init",...} first; the worker loads the user's files and answers
    {"type":"ready","provider":Name} or {"type":"load_error","file":F,"line":L,"column":C,
    "message":M}.
    Then it answers {"op":"call","id":N,"method":M,"params":P} with {"type":"result","id":N,
    "value":V} or {"type":"failure","id":N,"kind":K,"message":T}, one call at a time and in the
    order sent (Node may send the next calls before this one is answered); progress and elicit
    messages for call N may come before its answer. {"op":"replay","goal":G} (between
    calls) runs a goal another worker broadcast with mcp_broadcast/1. Node writes its messages as
    Prolog terms (see rondo_channel), which read as the curly objects shown here.
*/
:- module(rondo_bridge, [main/0]).

:- use_module(rondo_channel).
:- use_module(rondo_json, [curly_get/3, curly_pairs/2]).
:- use_module(rondo_provider).
:- use_module(rondo_describe, [describe/1]).
:- use_module(rondo_check, [check/1]).
:- use_module(rondo_calls).
:- use_module(rondo_load).
:- use_module(rondo_errors, [error_description/3, log_raw_error/2, call_failed/2, message_line/2]).
:- use_module(rondo_client, [begin_call/1, end_call/0, replay/1]).

% mcp_log/2,3, mcp_sample/2, mcp_roots/1, mcp_notify/1, mcp_broadcast/1, mcp_emit/2,3 and
% mcp_close_stream/0 for every user module.
:- user:use_module(rondo_client, [mcp_log/2, mcp_log/3, mcp_sample/2, mcp_roots/1, mcp_notify/1,
                                  mcp_broadcast/1, mcp_emit/2, mcp_emit/3, mcp_close_stream/0]).
% mcp_json_get/3,4,5 read a member of the JSON objects providers receive.
:- user:use_module(rondo_json_get, [mcp_json_get/3, mcp_json_get/4, mcp_json_get/5]).

%!  main is det.
main :-
    open_channel,
    on_signal(int, _, rondo_bridge:interrupt),
    (   receive(Init), curly_get(Init, op, init)
    ->  init(Init)
    ;   halt(2)
    ),
    serve.

init(Init) :-
    curly_get(Init, flavour, Flavour),
    curly_get(Init, files, Files),
    ( curly_get(Init, object, Object), atom(Object) -> true ; Object = none ),
    ( curly_get(Init, scratch, Scratch), atom(Scratch) -> true ; Scratch = none ),
    ( curly_get(Init, interrupts, List), atom(List) -> true ; List = none ),
    nb_setval(rondo_interrupts, List),
    nb_setval(rondo_skip, []),
    ( curly_get(Init, answerBatch, Batch), integer(Batch), Batch > 0 -> answer_batch(Batch) ; true ),
    (   load_all(Flavour, Files, Scratch, Object, Name)
    ->  curly_pairs(J, [type-ready, provider-Name]), send(J)
    ;   load_failure(File, Line, Column, Message),
        curly_pairs(J, [type-load_error, file-File, line-Line, column-Column, message-Message]),
        send(J), halt(1)
    ).

% Node sends SIGINT when the caller of a call it sent gave up (a cancelled request or task),
% after writing the ids of such calls to the interrupt list (a file, named in init). The running
% call, if listed, is interrupted with rondo_cancelled, which fails it and keeps the worker; a
% listed call not started yet is skipped when its turn comes (it fails the same way). A goal that
% swallows the exception runs on, and its worker is replaced after the grace period.
interrupt(_) :-
    interrupt_targets(Ids),
    nb_setval(rondo_skip, Ids),
    (   nb_current(rondo_call, Id), Id \== none, memberchk(Id, Ids)
    ->  throw(rondo_cancelled)
    ;   true
    ).

interrupt_targets(Ids) :-
    nb_current(rondo_interrupts, File), File \== none,
    % The list is replaced in one rename, so it is whole or missing (no call cancelled yet).
    catch(read_file_to_terms(File, [Ids0], []), error(existence_error(source_sink, _), _), fail),
    is_list(Ids0), !,
    Ids = Ids0.
interrupt_targets([]).

% Checked once the call is current: a signal before it has listed the call, one after it throws.
not_skipped(Id) :-
    (   nb_current(rondo_skip, Ids), memberchk(Id, Ids) -> throw(rondo_cancelled) ; true ).

% The channel ends at Node's end of input; a line that does not read as a term (Node writes
% every line, so it means a broken channel) ends it too.
% Each message is answered under once/1 and the loop recurses as its last call: a choice point
% left by any goal of a call (a user's hook that may succeed again, say) would keep the loop's
% frame, and with it every term and atom of every call served, for the worker's lifetime.
serve :-
    (   catch(receive(Msg), error(syntax_error(What), Where),
              ( print_message(error, error(syntax_error(What), Where)), fail ))
    ->  once(handle(Msg)), serve
    ;   halt(0)
    ).

%!  handle(+Message) is det.
%   Answers a call (a result or a failure, never silence: a method this worker does not know
%   and a call whose goal fails are failures too), or replays a broadcast goal.
handle(Msg) :-
    (   curly_get(Msg, op, call), curly_get(Msg, id, Id), curly_get(Msg, method, Method)
    ->  ( curly_get(Msg, params, Params) -> true ; Params = {} ),
        % Any exception of the call is its answer: the worker stays up for the next one.
        setup_call_cleanup(begin_call(Id),
            catch(answer(Id, Method, Params, Outcome), E, Outcome = thrown(E)),
            end_call),
        send_outcome(Outcome, Id)
    ;   curly_get(Msg, op, replay), curly_get(Msg, goal, Goal)
    ->  replay(Goal)
    ;   print_message(warning, format('rondo: ignored message ~q', [Msg]))
    ).

answer(Id, Method, Params, Outcome) :-
    not_skipped(Id),
    (   dispatch(Method, Id, Params, Value)
    ->  Outcome = value(Value)
    ;   format(string(Text), 'the ~w call failed', [Method]),
        Outcome = thrown(error(rondo_call_failed(failed, Text), _))
    ).

% The outcome first: the clause is picked by first-argument indexing, leaving no choice point.
send_outcome(value(Value), Id) :- reply(Id, Value).
send_outcome(thrown(E), Id) :- failure(Id, E).

%!  dispatch(+Method, +Id, +Params, -Json) is semidet.
dispatch(describe, _, _, J) :- !, describe(J).
dispatch(tool, Id, P, J) :- !,
    curly_get(P, name, Name), params(P, arguments, Args), params(P, context, Ctx),
    call_tool(Id, Name, Args, Ctx, J).
dispatch(prompt, Id, P, J) :- !,
    curly_get(P, name, Name), params(P, arguments, Args), params(P, context, Ctx),
    get_prompt(Id, Name, Args, Ctx, J).
dispatch(resource, Id, P, J) :- !,
    curly_get(P, uri, Uri), params(P, context, Ctx),
    ( curly_get(P, known, Known) -> true ; Known = @(false) ),
    read_resource(Id, Uri, Known, Ctx, J).
dispatch(complete, _, P, J) :- !, complete(P, J).
dispatch(check, _, _, J) :- !, check(J).
dispatch(Method, _, _, _) :-
    format(string(Text), 'unknown bridge method ~q', [Method]),
    call_failed(unknown_method, Text).

params(P, Key, V) :- ( curly_get(P, Key, V) -> true ; V = {} ).

% A value that is not JSON fails its call instead: nothing was written (send/1 builds the line
% first), so the call is still owed an answer.
reply(Id, Value) :-
    catch(send_result(Id, Value), error(Formal, Context), not_json(Id, error(Formal, Context))).

% Only what json_text/2 raises for a value that is not JSON; anything else (an I/O error on the
% channel, say) ends the worker.
not_json(Id, E) :-
    E = error(Formal, _),
    ( Formal = type_error(_, _) ; Formal == instantiation_error ), !,
    failure(Id, E).
not_json(_, E) :-
    throw(E).

failure(Id, error(rondo_call_failed(mcp_error(Code), Text), _)) :- !,
    curly_pairs(J, [type-failure, id-Id, kind-mcp_error, code-Code, message-Text]),
    send(J).
failure(Id, E) :-
    failure_text(E, Kind, Text),
    curly_pairs(J, [type-failure, id-Id, kind-Kind, message-Text]),
    send(J).

failure_text(error(rondo_call_failed(Kind, Message), _), Kind, Message) :- !.
% Cancellation is not an error term, as SWI's own time_limit_exceeded and '$aborted' are not:
% code that catches error(_, _) to recover from its own failures does not swallow it.
failure_text(rondo_cancelled, cancelled, "the call was cancelled") :- !.
failure_text(error(rondo_invalid_result(What, T), _), invalid_result, Text) :- !,
    format(string(Text), 'invalid ~w: ~q', [What, T]).
failure_text(error(type_error(json, T), _), invalid_result, Text) :- !,
    format(string(Text), 'not a JSON value: ~q', [T]).
failure_text(E, exception, Text) :-
    (   error_description(E, none, Text) -> log_raw_error('a call', E)
    ;   E = error(_, _) -> message_line(E, Text), log_raw_error('a call', E)
    ;   format(string(Text), '~w', [E])
    ).
