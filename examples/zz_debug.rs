fn main() {
    let b = std::fs::read(std::env::args().nth(1).unwrap()).unwrap();
    let s = agent_trace_viewer::json::split(&b, 0);
    println!("layout {:?} values {} hazards {} first {:?}", s.layout, s.values.len(), s.hazards.len(), &s.hazards[..s.hazards.len().min(5)]);
    for h in s.hazards.iter().take(3) { println!("{:?}", String::from_utf8_lossy(&b[*h..*h+20])); }
}
