/** <module> Reading the JSON objects a provider receives. Objects arrive as curly terms ({K-V, ...}, {}
    when empty): an elicitation's accepted content, a structured argument, a sampling result.
    memberchk/2 on one raises a type error (a curly term is not a list), and a missing or
    mistyped member is the usual mistake; these predicates read a member by key, with a default
    and a type check, from a curly object or a list of Key-Value pairs (tool and prompt arguments)
    alike. They are imported into `user`, like mcp_log/2: modules call them unqualified, a Logtalk
    object with {}/1.
*/
:- module(rondo_json_get, [mcp_json_get/3, mcp_json_get/4, mcp_json_get/5]).

:- use_module(library(lists)).

%!  mcp_json_get(+Object, +Key, -Value) is semidet.
%   Value is the member Key of Object (a curly object or a list of Key-Value pairs); fails when
%   Object has no such member. Object not an object: a type error.
mcp_json_get(Object, Key, Value) :-
    object_pairs(Object, Pairs, mcp_json_get/3),
    memberchk(Key-Found, Pairs),
    Value = Found.

%!  mcp_json_get(+Object, +Key, -Value, +Default) is det.
%   Value is the member Key of Object, or Default when it has none (a member that is null is
%   there: its value is @null).
mcp_json_get(Object, Key, Value, Default) :-
    object_pairs(Object, Pairs, mcp_json_get/4),
    (   memberchk(Key-Found, Pairs) -> Value = Found ; Value = Default ).

%!  mcp_json_get(+Object, +Key, +Type, -Value, +Default) is det.
%   As mcp_json_get/4, and a member that is there must be of Type: string (an atom, as JSON
%   strings arrive), integer, number, boolean (@true or @false), object (curly), array (a list)
%   or any. A member of another type raises type_error(Type, Value), which a tool reports in
%   words; the default is not checked.
mcp_json_get(Object, Key, Type, Value, Default) :-
    must_be(oneof([string, integer, number, boolean, object, array, any]), Type),
    object_pairs(Object, Pairs, mcp_json_get/5),
    (   memberchk(Key-Found, Pairs)
    ->  (   json_type(Type, Found)
        ->  Value = Found
        ;   format(atom(Where), 'the member ~q', [Key]),
            throw(error(type_error(Type, Found), context(mcp_json_get/5, Where)))
        )
    ;   Value = Default
    ).

object_pairs(Object, _, PI) :-
    var(Object), !,
    throw(error(instantiation_error, context(PI, _))).
object_pairs({}, [], _) :- !.
object_pairs({Chain}, Pairs, _) :- !,
    chain_pairs(Chain, Pairs).
object_pairs(List, List, _) :- is_list(List), !.
object_pairs(Other, _, PI) :-
    throw(error(type_error(object, Other), context(PI, 'a JSON object is {Key-Value, ...}'))).

chain_pairs(Chain, _) :- var(Chain), !, fail.
chain_pairs((Pair, Rest), [Pair|Pairs]) :- !, chain_pairs(Rest, Pairs).
chain_pairs(Pair, [Pair]).

json_type(any, _).
json_type(string, V) :- atom(V).
json_type(string, V) :- string(V).
json_type(integer, V) :- integer(V).
json_type(number, V) :- number(V).
json_type(boolean, @(V)) :- ( V == true ; V == false ).
json_type(object, {}).
json_type(object, {_}).
json_type(array, V) :- is_list(V).
