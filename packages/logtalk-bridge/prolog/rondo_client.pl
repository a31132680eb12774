/** <module> What a provider can do besides returning a result, from anywhere in its code while a call
    runs: log to the client, ask the client's model or its roots (legacy wire), announce that a
    list changed. These predicates are imported into `user`, so any module calls them
    unqualified; a Logtalk object calls them with {}/1, e.g. `{mcp_log(info, 'Started')}`.

        mcp_log(+Level, +Data)             Level: debug, info, notice, warning, error, critical,
        mcp_log(+Level, +Data, +Logger)    alert, emergency; Data: any JSON term.
        mcp_sample(+Sampling, -Result)     Sampling: sampling(Messages, ModelPreferences,
                                           SystemPrompt, IncludeContext[, MaxTokens]); Result:
                                           {role-R, content-C, model-M, stopReason-S}.
        mcp_roots(-Roots)                  a list of {uri-U[, name-N]}.
        mcp_close_stream                   closes the response stream of the running call while
                                           it goes on (SSE polling: the client resumes it and
                                           gets the result there); nothing where it cannot.
        mcp_notify(+Event)                 tools_list_changed, prompts_list_changed,
                                           resources_list_changed or resource_updated(URI).
        mcp_broadcast(:Goal)               runs Goal once here and, when called during a call,
                                           in every other worker too (and in workers started
                                           later), before their next call.
        mcp_emit(+Name, +Data)             raises an occurrence of the event type Name (declared
        mcp_emit(+Name, +Data, +Options)   by events/1) with Data, a JSON object; Options:
                                           match({Key-Value, ...}), the subscription arguments
                                           it is for; id(Id), its event id.

    Messages printed with print_message/2 during a call (informational, warning, error) are
    logged to the client as well. Sampling and roots fail with an exception when the client
    cannot answer (the modern wire has no mid-call requests: use input_required there).
*/
:- module(rondo_client, [
    mcp_log/2, mcp_log/3, mcp_sample/2, mcp_roots/1, mcp_notify/1, mcp_broadcast/1,
    mcp_emit/2, mcp_emit/3, mcp_close_stream/0, begin_call/1, end_call/0, replay/1
]).

:- use_module(rondo_channel, [send/1, receive_answer/1]).
:- use_module(rondo_json, [curly_pairs/2, curly_get/3]).
:- use_module(rondo_vocab, [sampling_value/2]).
:- use_module(rondo_events, [declared_event/1]).

%!  begin_call(+Id) is det.
%!  end_call is det.
%   The call in progress: client requests and logs are tagged with it.
begin_call(Id) :- nb_setval(rondo_call, Id).
end_call :- nb_setval(rondo_call, none).

current_call(Id) :-
    nb_current(rondo_call, Id),
    Id \== none.

level(debug). level(info). level(notice). level(warning).
level(error). level(critical). level(alert). level(emergency).

%!  mcp_log(+Level, +Data) is det.
mcp_log(Level, Data) :- mcp_log(Level, Data, none).

%!  mcp_log(+Level, +Data, +Logger) is det.
%   Outside a call, the message goes to the server log (standard error).
mcp_log(Level, Data, Logger) :-
    must_be(oneof([debug, info, notice, warning, error, critical, alert, emergency]), Level),
    (   current_call(Id) -> Call = [id-Id] ; Call = [] ),
    (   Logger == none -> Extra = [] ; Extra = [logger-Logger] ),
    append([[type-log|Call], [level-Level, data-Data], Extra], Pairs),
    curly_pairs(J, Pairs),
    send(J).

%!  mcp_sample(+Sampling, -Result) is det.
mcp_sample(Sampling, Result) :-
    sampling_value(Sampling, Request),
    client_request(sampling, [request-Request], Answer),
    curly_pairs(Answer, Pairs),
    exclude([K-_]>>(K == kind), Pairs, Rest),
    curly_pairs(Result, Rest).

%!  mcp_roots(-Roots) is det.
mcp_roots(Roots) :-
    client_request(roots, [], Answer),
    curly_get(Answer, roots, Roots).

client_request(What, Members, Answer) :-
    (   current_call(Id) -> true
    ;   throw(error(mcp_request_failed(What, 'not inside a call'), _))
    ),
    curly_pairs(J, [type-What, id-Id|Members]),
    send(J),
    (   receive_answer(Reply), curly_get(Reply, value, V)
    ->  (   curly_get(V, kind, error)
        ->  curly_get(V, message, Message),
            throw(error(mcp_request_failed(What, Message), _))
        ;   Answer = V
        )
    ;   throw(error(mcp_request_failed(What, 'no answer'), _))
    ).

%!  mcp_close_stream is det.
%   Outside a call there is no stream to close: nothing is sent.
mcp_close_stream :-
    (   current_call(Id)
    ->  curly_pairs(J, [type-close_stream, id-Id]),
        send(J)
    ;   true
    ).

%!  mcp_notify(+Event) is det.
%   A list change carries the provider's new description, read in this worker.
mcp_notify(Event) :-
    must_be(callable, Event),
    (   list_event(Event, What)
    ->  rondo_describe:describe(D),
        curly_pairs(J, [type-changed, what-What, description-D])
    ;   Event = resource_updated(Uri)
    ->  must_be(atom, Uri),
        curly_pairs(J, [type-changed, what-resource, uri-Uri])
    ;   domain_error(mcp_event, Event)
    ),
    send(J).

%!  mcp_broadcast(:Goal) is semidet.
%   Runs Goal once; when it succeeds during a call, Node has every other worker run it too
%   (before its next call), so state behind a changing list (a dynamic fact, say) holds in
%   all of them. Outside a call (a directive while loading) every worker runs its own goals
%   anyway, so nothing is sent.
:- meta_predicate mcp_broadcast(0).
mcp_broadcast(Goal) :-
    once(Goal),
    (   current_call(_)
    ->  format(string(Text), '~k', [Goal]),
        curly_pairs(J, [type-broadcast, goal-Text]),
        send(J)
    ;   true
    ).

%!  mcp_emit(+Name, +Data) is det.
%!  mcp_emit(+Name, +Data, +Options) is det.
%   Raises one occurrence of the event type Name, which events/1 must declare (else an
%   existence error), with Data, a JSON object ({Key-Value, ...}). Options:
%     match({Key-Value, ...})  the subscription arguments it is for: a subscription whose
%                              arguments name a key receives it only when the values are equal
%                              (absent: every subscription of the type);
%     id(Id)                   its event id, an atom or string (clients deduplicate on it).
%   Works during a call or outside one. Node checks Data against the type's payload schema: an
%   occurrence that does not fit is dropped with a warning in the server log.
mcp_emit(Name, Data) :- mcp_emit(Name, Data, []).

mcp_emit(Name, Data, Options) :-
    must_be(atom, Name),
    (   declared_event(Name) -> true ; existence_error(mcp_event_type, Name) ),
    (   json_object(Data) -> true ; type_error(json_object, Data) ),
    must_be(list, Options),
    maplist(emit_option, Options, Extra),
    curly_pairs(J, [type-emit, event-Name, data-Data|Extra]),
    send(J).

emit_option(match(M), match-M) :- json_object(M), !.
emit_option(id(Id), eventId-A) :- ( atom(Id) ; string(Id) ), Id \== '', Id \== "", !, atom_string(A, Id).
emit_option(O, _) :- domain_error(mcp_emit_option, O).

json_object(C) :- ( C == {} ; nonvar(C), C = {_} ), !.

%!  replay(+Text) is det.
%   Runs a goal another worker broadcast; a failure or an error is printed (to stderr, which
%   Node logs), never answered.
replay(Text) :-
    % Whatever the goal raises is printed: a broadcast never fails the call that replays it.
    (   catch((term_string(Goal, Text), once(Goal)), E, (print_message(error, E), fail))
    ->  true
    ;   print_message(warning, format('rondo: the broadcast goal ~w did not succeed here', [Text]))
    ).

list_event(tools_list_changed, tools).
list_event(prompts_list_changed, prompts).
list_event(resources_list_changed, resources).

:- multifile prolog:error_message//1.
prolog:error_message(mcp_request_failed(What, Message)) -->
    [ 'The client could not answer the ~w request: ~w'-[What, Message] ].

% print_message/2 during a call also reaches the client's log (and is still printed).
:- multifile user:message_hook/3.
:- dynamic user:message_hook/3.

user:message_hook(Term, Kind, Lines) :-
    memberchk(Kind-Level, [informational-info, warning-warning, error-error]),
    current_call(_),
    \+ nb_current(rondo_forwarding, true),
    Term \= mcp_request_failed(_, _),
    setup_call_cleanup(
        nb_setval(rondo_forwarding, true),
        % A message that cannot be forwarded (the channel is gone) is still printed.
        catch(forward_message(Level, Lines), error(_, _), true),
        nb_setval(rondo_forwarding, false)),
    fail.

forward_message(Level, Lines) :-
    with_output_to(string(S0), print_message_lines(current_output, '', Lines)),
    split_string(S0, "", " \n", [Text]),
    Text \== "",
    atom_string(A, Text),
    mcp_log(Level, A, prolog).
