// The CLI reference in Markdown, from the command line's own definitions.
#pragma once

namespace CLI {
class App;
}

namespace tcu {

// Adds the hidden subcommand `help-markdown`: it prints every subcommand of
// `app`, with its options, their types, defaults and descriptions, as
// Markdown and exits 0. The documentation site's CLI reference is its output.
void add_cli_reference_command(CLI::App& app);

}  // namespace tcu
