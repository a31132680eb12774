/** <module> Prolog's error terms in words a client can read. A raw `error(existence_error(procedure,
    foo/2), context(...))` means little to a model or a person using a tool; the term itself is
    written to the worker's standard error (the server's log) instead.
*/
:- module(rondo_errors, [error_description/3, log_raw_error/2, call_failed/2, invalid_result/2,
                         message_line/2]).

:- use_module(library(lists)).

%!  error_description(+Error, +Predicate, -Text) is semidet.
%   Text says what went wrong in an ISO error term error(Formal, Context); Predicate is the
%   tool's own predicate indicator (or none), so that its absence reads as such. Fails for
%   anything else, which is shown as it is.
error_description(error(Formal, Context), Predicate, Text) :-
    nonvar(Formal),
    formal_text(Formal, Predicate, Main),
    context_text(Context, Where),
    atomic_list_concat([Main, Where], Text).

formal_text(existence_error(procedure, PI0), Own, Text) :- !,
    unqualified(PI0, PI),
    (   PI == Own -> format(atom(Text), 'the tool\'s predicate ~w does not exist', [PI])
    ;   format(atom(Text), 'the predicate ~w does not exist', [PI])
    ).
formal_text(existence_error(Kind, What), _, Text) :- !,
    format(atom(Text), 'the ~w ~q does not exist', [Kind, What]).
formal_text(instantiation_error, _, 'instantiation error: an argument was not bound') :- !.
formal_text(uninstantiation_error(Culprit), _, Text) :- !,
    format(atom(Text), 'expected an unbound argument, got ~q', [Culprit]).
formal_text(type_error(Type, Culprit), _, Text) :- !,
    format(atom(Text), 'expected a value of type ~w, got ~q', [Type, Culprit]).
formal_text(domain_error(Domain, Culprit), _, Text) :- !,
    format(atom(Text), 'the value ~q is outside the domain ~w', [Culprit, Domain]).
formal_text(evaluation_error(zero_divisor), _, 'arithmetic error: division by zero') :- !.
formal_text(evaluation_error(What), _, Text) :- !,
    format(atom(Text), 'arithmetic error: ~w', [What]).
formal_text(representation_error(What), _, Text) :- !,
    format(atom(Text), 'a value cannot be represented: ~w', [What]).
formal_text(resource_error(What), _, Text) :- !,
    format(atom(Text), 'out of a resource: ~w', [What]).
formal_text(permission_error(Action, Type, Culprit), _, Text) :- !,
    format(atom(Text), 'no permission to ~w the ~w ~q', [Action, Type, Culprit]).
formal_text(syntax_error(What), _, Text) :- !,
    format(atom(Text), 'syntax error: ~w', [What]).

context_text(Context, Where) :-
    (   nonvar(Context), Context = context(Culprit, Message)
    ->  ( callable_culprit(Culprit, PI) -> format(atom(In), ' (in ~w)', [PI]) ; In = '' ),
        ( ( atom(Message), Message \== '' ; string(Message) )
        ->  format(atom(Note), ': ~w', [Message]) ; Note = '' ),
        atom_concat(In, Note, Where)
    ;   Where = ''
    ).

% The predicate that raised, unless it is the bridge's own (which called the missing one).
callable_culprit(C, PI) :-
    nonvar(C), \+ ( C = M:_, atom(M), sub_atom(M, 0, _, _, rondo_) ),
    unqualified(C, PI), PI = F/A, atom(F), integer(A).

unqualified(PI0, PI) :- nonvar(PI0), PI0 = _:Inner, !, unqualified(Inner, PI).
unqualified(PI, PI).

%!  log_raw_error(+What, +Error) is det.
%   Writes the raw term on the worker's standard error, which the server logs.
log_raw_error(What, Error) :-
    % The log is a courtesy: an error writing it must not replace the call's own answer.
    catch(format(user_error, 'rondo: ~w raised ~q~n', [What, Error]), error(_, _), true).

%!  call_failed(+Kind, +Message) is det.
%   Throws error(rondo_call_failed(Kind, Message), _): the call fails with its kind (unknown,
%   failed, unknown_method, or mcp_error(Code) for a JSON-RPC error of the provider's choice) and
%   Message, as Node reports it.
call_failed(Kind, Message) :-
    throw(error(rondo_call_failed(Kind, Message), _)).

%!  invalid_result(+What, +Term) is det.
%   Throws error(rondo_invalid_result(What, Term), _): a hook answered Term, which is not a What.
invalid_result(What, Term) :-
    throw(error(rondo_invalid_result(What, Term), _)).

%!  message_line(+Term, -Text) is det.
%   Term as print_message/2 would print it, on one line.
message_line(Term, Text) :-
    message_to_string(Term, S0),
    split_string(S0, "\n", " \t", Parts0), exclude(==(""), Parts0, Parts),
    atomic_list_concat(Parts, ' ', A), atom_string(A, Text).

:- multifile prolog:error_message//1.
prolog:error_message(rondo_call_failed(_, Message)) -->
    [ '~w'-[Message] ].
prolog:error_message(rondo_invalid_result(What, Term)) -->
    [ 'invalid ~w: ~q'-[What, Term] ].
