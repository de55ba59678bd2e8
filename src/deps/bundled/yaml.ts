// Built into one file (dist/deps/yaml.mjs): loading one file is several times faster than the package's many.
import yaml from "yaml";

export default yaml;
