// Overloaded: a visitor made of lambdas, for std::visit over the server's variants (journal
// entries, table events, client requests).
#pragma once

namespace tarneeb::server {

template <class... F>
struct Overloaded : F... {
    using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

}  // namespace tarneeb::server
