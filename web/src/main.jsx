import { render } from "preact";
import { App } from "./components/app.jsx";
import "./styles.css";

render(<App />, document.getElementById("app"));
