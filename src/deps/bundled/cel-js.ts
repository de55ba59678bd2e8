// Built into one file (dist/deps/cel-js.cjs): loading one file is several times faster than the package's many.
import * as celJs from "@marcbachmann/cel-js";

export default celJs;
