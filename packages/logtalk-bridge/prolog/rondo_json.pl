/** <module> JSON <-> term with Logtalk's conventions: objects are curly terms {K-V, ...} ({} when empty),
    strings are atoms, true/false/null are @true/@false/@null, arrays are lists.

    Writing is done here, because the library's writer has its own conventions for atoms such
    as `true` and would break lines; strings are escaped by the library's foreign
    json_write_string/2. Nothing is parsed here: Node sends its messages as Prolog terms (read
    in C, far cheaper than parsing JSON in Prolog, and exact for big integers).
*/
:- module(rondo_json, [json_text/2, is_json/1, curly_pairs/2, curly_get/3]).

:- use_module(library(http/json), []).  % json:json_write_string/2, the foreign string writer
:- use_module(library(lists)).

%!  curly_pairs(?Curly, ?Pairs) is det.
%   Converts between a curly object and a list of Key-Value pairs.
curly_pairs({}, []) :- !.
curly_pairs({Chain}, Pairs) :- nonvar(Chain), !,
    chain_list(Chain, Pairs).
curly_pairs({Chain}, Pairs) :-
    list_chain(Pairs, Chain).

chain_list((A, B), [A|Rest]) :- !, chain_list(B, Rest).
chain_list(A, [A]).

list_chain([P], P) :- !.
list_chain([P|Ps], (P, Chain)) :- list_chain(Ps, Chain).

%!  curly_get(+Curly, +Key, -Value) is semidet.
%   The value of Key in a curly object.
%   Walks the members as they are (memberchk/2 on them as a list, without building the list).
curly_get({Chain}, Key, Value) :-
    chain_get(Chain, Key, Value).

chain_get((P, Ps), Key, Value) :- !,
    (   P = Key-Value -> true ; chain_get(Ps, Key, Value) ).
chain_get(P, Key, Value) :-
    P = Key-Value.

%!  json_text(+Term, -String) is det.
%   Writes Term as compact JSON on one line; throws type_error(json, T) for a non-JSON part.
json_text(Term, String) :-
    with_output_to(string(String), write_json(Term)).

%!  is_json(@Term) is semidet.
%   True when json_text/2 writes Term (it raises nothing but these two errors for a non-JSON part).
is_json(Term) :-
    catch(catch(json_text(Term, _), error(type_error(_, _), _), fail),
          error(instantiation_error, _), fail).

write_json(T) :- var(T), !, throw(error(instantiation_error, json_text/2)).
write_json(@(true)) :- !, write(true).
write_json(@(false)) :- !, write(false).
write_json(@(null)) :- !, write(null).
write_json({}) :- !, write('{}').
write_json([]) :- !, write('[]').
write_json({Chain}) :- !,
    put_char('{'), write_chain(Chain), put_char('}').
write_json(json(Pairs)) :- is_list(Pairs), !,
    put_char('{'), write_members(Pairs), put_char('}').
write_json(List) :- is_list(List), !,
    put_char('['), write_elements(List), put_char(']').
write_json(N) :- integer(N), !, write(N).
write_json(F) :- float(F), !, write_float(F).
write_json(A) :- atom(A), !, write_string(A).
write_json(S) :- string(S), !, write_string(S).
write_json(chars(Cs)) :- !, atom_chars(A, Cs), write_string(A).
write_json(codes(Cs)) :- !, atom_codes(A, Cs), write_string(A).
write_json(T) :- throw(error(type_error(json, T), json_text/2)).

% The members of a curly object, written without building a list first.
write_chain(Chain) :- var(Chain), !, throw(error(instantiation_error, json_text/2)).
write_chain((P, Ps)) :- !, write_member(P), put_char(','), write_chain(Ps).
write_chain(P) :- write_member(P).

write_members([]).
write_members([P|Ps]) :-
    write_member(P),
    ( Ps == [] -> true ; put_char(','), write_members(Ps) ).

% The usual member, an atom key with a dash, first: no pair taken apart, no key converted.
write_member(P) :-
    nonvar(P), P = K-V, atom(K), !,
    write_string(K), put_char(':'), write_json(V).
write_member(P) :-
    (   member_parts(P, K, V) -> true
    ;   throw(error(type_error(json_member, P), json_text/2))
    ),
    key_text(K, KT), write_string(KT), put_char(':'), write_json(V).

member_parts(P, _, _) :- var(P), !, fail.
member_parts(K-V, K, V).
member_parts(K=V, K, V).
member_parts(K:V, K, V).

key_text(K, K) :- atom(K), !.
key_text(K, K) :- string(K), !.
key_text(K, T) :- number(K), !, format(atom(T), '~w', [K]).
key_text(K, _) :- throw(error(type_error(json_key, K), json_text/2)).

write_elements([]).
write_elements([E|Es]) :-
    write_json(E),
    ( Es == [] -> true ; put_char(','), write_elements(Es) ).

% SWI-Prolog prints the shortest text that reads back as the same float; only
% infinities and NaN have no JSON form.
write_float(F) :-
    (   F =:= F, abs(F) =< 1.7976931348623157e308
    ->  format('~w', [F])
    ;   throw(error(type_error(json_number, F), json_text/2))
    ).

% The library's foreign string writer escapes quotes, backslashes and control characters and
% writes everything else as it is (current_output is a wide-character string here).
:- if(current_predicate(json:json_write_string/2)).
write_string(Text) :- json:json_write_string(current_output, Text).
:- else.
write_string(Text) :- escaped_string(Text).
:- endif.

escaped_string(Text) :-
    atom_codes(Text, Codes),
    phrase(escaped(Codes), Out),
    format('"~s"', [Out]).

escaped([]) --> [].
escaped([C|Cs]) --> escape(C), escaped(Cs).

escape(0'") --> !, "\\\"".
escape(0'\\) --> !, "\\\\".
escape(0'\n) --> !, "\\n".
escape(0'\r) --> !, "\\r".
escape(0'\t) --> !, "\\t".
escape(C) --> { C < 0x20 ; C >= 0xD800, C =< 0xDFFF ; C == 0x2028 ; C == 0x2029 }, !,
    { format(codes(Hex), '\\u~|~`0t~16r~4+', [C]) }, Hex.
escape(C) --> [C].
