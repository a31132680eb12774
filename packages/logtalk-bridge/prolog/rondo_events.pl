/** <module> Event types (the io.modelcontextprotocol/events extension, SEP-3415) a provider declares
    with the optional hook events/1, a list of

        event(Name, Properties)   Name: an atom of letters, digits, _ - . or / (1-128); Properties:
                                      description(Text)   what the event means (required)
                                      title(Text)         a human-readable name
                                      input(Schema)       JSON Schema of the subscription's
                                                          arguments (default: an object schema
                                                          with no properties)
                                      payload(Schema)     JSON Schema of each occurrence's data
                                                          (default {type-object})
                                      modes(Modes)        a non-empty list of poll, push and
                                                          webhook (default [poll, push])
                                      replay(Bounds)      how much of the past a cursor can
                                                          resume from: count(N), bytes(N),
                                                          age_ms(N) (defaults 1000, 1 MiB, 1 h)

    A provider raises an occurrence with mcp_emit/2,3 (rondo_client). events_json/1 gives the
    declared types to Node; event_problem/2 says what is wrong with one item, for the checks run
    at load (each reported with the file and line of the events/1 clause).
*/
:- module(rondo_events, [events_json/1, event_problem/2, declared_event/1]).

:- use_module(rondo_provider).
:- use_module(rondo_json, [curly_pairs/2]).
:- use_module(library(lists)).

%!  events_json(-List) is det.
%   The declared event types as JSON objects ([] without the hook); items with problems are left
%   out (the start-up check reports them).
events_json(J) :-
    (   declared_items(Items)
    ->  include([I]>>( \+ event_problem(I, _) ), Items, Good),
        maplist(event_json, Good, J)
    ;   J = []
    ).

%!  declared_event(+Name) is semidet.
%   True when events/1 declares an event type of this name.
declared_event(Name) :-
    declared_items(Items),
    member(event(N, _), Items), text_atom(N, A), text_atom(Name, A), !.

% An events/1 that raises declares nothing; the start-up check reports what it raised.
declared_items(Items) :- catch(hook(events(Items)), _, fail), is_list(Items).

event_json(event(Name, Props), J) :-
    text_atom(Name, N),
    memberchk(description(D), Props), text_atom(D, DA),
    findall(K-V, ( member(P, Props), optional_member(P, K, V) ), Optional),
    curly_pairs(J, [name-N, description-DA|Optional]).

optional_member(title(T), title, A) :- text_atom(T, A).
optional_member(input(S), inputSchema, S).
optional_member(payload(S), payloadSchema, S).
optional_member(modes(Ms), modes, Ms).
optional_member(replay(Bounds), replay, J) :-
    findall(K-N, ( member(B, Bounds), B =.. [F, N], bound_key(F, K) ), Pairs),
    curly_pairs(J, Pairs).

bound_key(count, count).
bound_key(bytes, bytes).
bound_key(age_ms, ageMs).

%!  event_problem(+Item, -Message) is semidet.
%   True when Item of events/1 cannot be served, with a one-line message saying what and what
%   was expected.
event_problem(event(Name, Props), M) :- !,
    (   \+ text(Name)
    ->  format(string(M), 'event name ~q is not an atom; expected event(Name, Properties)', [Name])
    ;   text_atom(Name, N), \+ event_name(N)
    ->  format(string(M), 'event name ~q breaks the naming rule; expected 1-128 letters, digits, "_", "-", "." or "/", not starting with "-", "." or "/"', [N])
    ;   \+ is_list(Props)
    ->  format(string(M), 'event ~w: properties ~q are not a list; expected [description(Text), ...]', [Name, Props])
    ;   member(P, Props), property_problem(P, What)
    ->  format(string(M), 'event ~w: ~w', [Name, What])
    ;   \+ memberchk(description(_), Props)
    ->  format(string(M), 'event ~w has no description(Text); expected one', [Name])
    ;   text_atom(Name, N), declared_twice(N)
    ->  format(string(M), 'event ~w is declared more than once; expected one event(~w, ...) item', [N, N])
    ).
event_problem(Item, M) :-
    format(string(M), 'events/1 item ~q is not event(Name, Properties)', [Item]).

declared_twice(N) :-
    declared_items(Items),
    findall(x, ( member(event(Other, _), Items), text(Other), text_atom(Other, N) ), [_, _|_]).

property_problem(description(T), 'description(Text) needs a non-empty text') :- \+ nonempty_text(T), !.
property_problem(title(T), 'title(Text) needs a text') :- \+ text(T), !.
property_problem(input(S), What) :- \+ curly(S), !,
    format(string(What), 'input(~q) is not a JSON Schema object; expected a curly term such as {type-object, properties-{...}}', [S]).
property_problem(payload(S), What) :- \+ curly(S), !,
    format(string(What), 'payload(~q) is not a JSON Schema object; expected a curly term such as {type-object, properties-{...}}', [S]).
property_problem(modes(Ms), What) :- \+ modes(Ms), !,
    format(string(What), 'modes(~q): expected a non-empty list of poll, push and webhook, each once', [Ms]).
property_problem(replay(Bs), What) :- \+ replay_bounds(Bs), !,
    format(string(What), 'replay(~q): expected a list of count(N), bytes(N) and age_ms(N), each a positive integer', [Bs]).
property_problem(P, What) :-
    \+ memberchk(P, [description(_), title(_), input(_), payload(_), modes(_), replay(_)]),
    format(string(What), 'unknown property ~q; expected description/1, title/1, input/1, payload/1, modes/1 or replay/1', [P]).

modes(Ms) :-
    is_list(Ms), Ms = [_|_], sort(Ms, Set), length(Ms, L), length(Set, L),
    forall(member(M, Ms), ( atom(M), memberchk(M, [poll, push, webhook]) )).

replay_bounds(Bs) :-
    is_list(Bs),
    forall(member(B, Bs), ( compound(B), B =.. [F, N], bound_key(F, _), integer(N), N > 0 )).

% The event names SEP-3415 allows, as Node checks them.
event_name(N) :-
    atom_codes(N, Cs), length(Cs, L), L >= 1, L =< 128,
    Cs = [F|_], name_code(F), F =\= 0'-, F =\= 0'., F =\= 0'/,
    forall(member(C, Cs), name_code(C)).

name_code(C) :-
    ( between(0'a, 0'z, C) ; between(0'A, 0'Z, C) ; between(0'0, 0'9, C) ; memberchk(C, `_-./`) ), !.

curly(C) :- ( C == {} ; nonvar(C), C = {_} ), !.

text(T) :- atom(T), ! ; string(T).
nonempty_text(T) :- text(T), T \== '', T \== "".
text_atom(T, A) :- atom(T), !, A = T.
text_atom(T, A) :- atom_string(A, T).
