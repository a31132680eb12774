/** <module> The mode types a tool predicate may declare (`:- mode(add(+integer, -integer), one).`) and
    the JSON Schema type each one advertises. One table, read by schema inference, by the shaping
    of output arguments and by the start-up check that rejects a type it does not list.
*/
:- module(rondo_types, [type_json/2, known_type/1, known_types_text/1]).

:- use_module(library(lists)).

%   type_entry(Shown, Template, JsonType): Shown is how the type reads in messages and docs.
type_entry(integer, integer, integer).
type_entry(positive_integer, positive_integer, integer).
type_entry(negative_integer, negative_integer, integer).
type_entry(non_positive_integer, non_positive_integer, integer).
type_entry(non_negative_integer, non_negative_integer, integer).
type_entry(byte, byte, integer).
type_entry(character_code, character_code, integer).
type_entry(float, float, number).
type_entry(number, number, number).
type_entry(boolean, boolean, boolean).
type_entry(list, list, array).
type_entry('list(T)', list(_), array).
type_entry(compound, compound, object).
type_entry(atom, atom, string).
type_entry(atomic, atomic, string).
type_entry(string, string, string).
type_entry(text, text, string).
type_entry(chars, chars, string).
type_entry(codes, codes, string).
type_entry(character, character, string).
type_entry(callable, callable, string).
type_entry(term, term, string).
type_entry(nonvar, nonvar, string).
type_entry(ground, ground, string).
type_entry(pair, pair, string).
type_entry('pair(K, V)', pair(_, _), string).

%!  type_json(+Type, -JsonType) is det.
%   The JSON Schema type of a mode type: a mode without a type (`+`), and a type the table does
%   not list (which the start-up check reports), are strings.
type_json(T, string) :- var(T), !.
type_json(T, J) :- type_entry(_, E, J), subsumes_term(E, T), !.
type_json(_, string).

%!  known_type(+Type) is semidet.
%   True for a type of the table, whose type arguments (as in `list(integer)`) are known too or
%   left open (`list(T)`).
known_type(T) :- var(T), !.
known_type(T) :-
    type_entry(_, E, _), subsumes_term(E, T), !,
    T =.. [_|Args], maplist(known_type, Args).

%!  known_types_text(-Text) is det.
%   Every type of the table, comma-separated, as the check names them.
known_types_text(Text) :-
    findall(S, type_entry(S, _, _), Shown),
    atomic_list_concat(Shown, ', ', Text).
